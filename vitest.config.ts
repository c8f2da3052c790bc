import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import example from './apps/example/vitest.config.ts'
import processorTemplate from './examples/processor-template/vitest.config.ts'
import cli from './packages/cli/vitest.config.ts'
import client from './packages/client/vitest.config.ts'
import errors from './packages/errors/vitest.config.ts'
import sandbox from './packages/sandbox/vitest.config.ts'
import schemas from './packages/schemas/vitest.config.ts'
import webhooks from './packages/webhooks/vitest.config.ts'
import { chooseSeed } from './scripts/property-seed.ts'
import scripts from './scripts/vitest.config.ts'
import { oneProject } from './vitest.shared.ts'

// One seed for the whole run, handed to the workers through the environment.
const seed = chooseSeed(process.env.FC_SEED)
process.env.FC_SEED = String(seed)
console.log(`fast-check seed ${seed} (replay: FC_SEED=${seed} pnpm test)`)

const packages = {
  'packages/cli': cli,
  'packages/client': client,
  'packages/errors': errors,
  'packages/sandbox': sandbox,
  'packages/schemas': schemas,
  'packages/webhooks': webhooks,
  'apps/example': example,
  'examples/processor-template': processorTemplate,
  scripts,
}

// `pnpm test` runs every project but the end-to-end one (`--project '!end-to-end'`), which
// `pnpm test:e2e` runs alone.
export default defineConfig({
  test: {
    projects: [
      oneProject('chargekit', packages, { endToEnd: false }),
      oneProject('end-to-end', packages, { endToEnd: true }),
    ],
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    // Vitest's default, one worker fewer than the cores, is a single worker on two cores: test
    // files then run one after another while most of them wait (for sandboxes in other
    // processes, PostgreSQL, Chromium, timers) and the second core idles. Two workers at least
    // overlap that waiting; each imports its project's modules once more (about a tenth more
    // CPU), which the overlap more than pays for.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Every run transforms the same TypeScript sources again (12–18 s of CPU summed over the
    // suite, on the same two cores the tests need). Kept on disk (node_modules/.experimental-
    // vitest-cache, gone with a reinstall), a later run transforms only the files that changed.
    // No project has Vite plugins, whose options the cache key could not see.
    experimental: { fsModuleCache: true },
  },
})
