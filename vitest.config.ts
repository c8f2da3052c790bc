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
  },
})
