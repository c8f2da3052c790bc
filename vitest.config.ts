import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { clientNodeTransportProject } from './packages/client/vitest.transports.ts'
import { sandboxStoreProjects } from './packages/sandbox/vitest.stores.ts'
import { chooseSeed } from './scripts/property-seed.ts'

// One seed for the whole run, handed to the workers through the environment.
const seed = chooseSeed(process.env.FC_SEED)
process.env.FC_SEED = String(seed)
console.log(`fast-check seed ${seed} (replay: FC_SEED=${seed} pnpm test)`)

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'apps/*',
      'examples/*',
      'scripts',
      ...sandboxStoreProjects,
      clientNodeTransportProject,
    ],
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    // Vitest's default, one worker fewer than the cores, is a single worker on two cores: test
    // files then run one after another while most of them wait (for sandboxes in other
    // processes, PostgreSQL, Chromium, timers) and the second core idles. Two workers at least
    // overlap that waiting; each imports its project's modules once more (about a tenth more
    // CPU), which the overlap more than pays for.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
