import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { defineProject, type ViteUserConfig } from 'vitest/config'

/**
 * Tests run on the packages' TypeScript source: the `@chargekit/source` export condition points
 * each workspace package at `src/index.ts`, so no build is needed first.
 */
const sourceConditions = ['@chargekit/source', 'import', 'module', 'node', 'default']

// Vitest also hands ssr.resolve.conditions to the worker as `node --conditions …`, where Node
// applies them to require() too: with 'import' there, pg's `require('pg-pool')` gets pg-pool's
// ESM build and fails. Vite adds 'import'/'require' per import by itself, so the source
// condition plus Node's defaults are enough on that side.
const serverConditions = ['@chargekit/source', 'node', 'development|production']

const propertySeedSetup = fileURLToPath(
  new URL('./scripts/property-seed-setup.ts', import.meta.url),
)
const pgliteTemplateSetup = fileURLToPath(
  new URL('./scripts/pglite-template-setup.ts', import.meta.url),
)

// PGlite is PostgreSQL compiled to one large WebAssembly module. V8 first compiles it with its
// baseline compiler (Liftoff), then recompiles the functions that run often with its optimizing
// one (TurboFan), on the same two cores the tests need. A test file's database lives a few
// seconds, too short for that recompilation to pay off: with Liftoff alone, a test file on
// PGlite takes about a third less CPU. Test files run in worker threads of this process, which
// share its V8 flags: set here, before any of them starts.
setFlagsFromString('--liftoff-only')

export function chargekitProject(name: string, test: NonNullable<ViteUserConfig['test']> = {}) {
  return defineProject({
    resolve: { conditions: sourceConditions },
    ssr: {
      resolve: { conditions: serverConditions, externalConditions: ['@chargekit/source', 'node'] },
    },
    // Global setups run in Vitest's own environment, and some import workspace sources too (the
    // sandbox's setups make a database with its tables).
    environments: {
      __vitest__: {
        resolve: {
          conditions: serverConditions,
          externalConditions: ['@chargekit/source', 'node'],
        },
      },
    },
    test: {
      name,
      environment: 'node',
      // Test files share their worker's module graph: importing the sandbox and its schemas
      // costs about a second, paid once per project instead of once per file. Every file still
      // starts its own servers, sandboxes and databases, and leaves nothing running.
      isolate: false,
      // Worker threads, not child processes: a worker fetches each module it imports from
      // Vitest, and within one process those fetches are messages between threads instead of
      // IPC between processes. Importing takes about a fifth less time.
      pool: 'threads',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      setupFiles: [propertySeedSetup],
      ...test,
      // A project's own global setups come on top of the shared one.
      globalSetup: [pgliteTemplateSetup, ...[test.globalSetup ?? []].flat()],
    },
  })
}
