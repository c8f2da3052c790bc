import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { configDefaults, defineProject, type ViteUserConfig } from 'vitest/config'

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
      globalSetup: [...new Set([pgliteTemplateSetup, ...[test.globalSetup ?? []].flat()])],
    },
  })
}

type PackageProject = ReturnType<typeof chargekitProject>

/**
 * End-to-end test files run our programs in processes of their own (the sandbox's CLI, killed
 * and started again; the demo; the processor template's CLI) or drive Chromium. They take more
 * than half the suite's time for one test in seventeen, so they are a project of their own, which
 * `pnpm test:e2e` runs as its own step, and `pnpm test` leaves out. So do the global setups only
 * they need (`*.e2e-setup.ts`: the CLIs bundled as bins).
 */
const endToEndTests = '**/*.e2e.test.ts'
const endToEndSetup = /\.e2e-setup\.ts$/

/** Where the whole suite's projects are rooted. */
const repositoryRoot = fileURLToPath(new URL('.', import.meta.url))

/**
 * The packages' projects as one project, for the whole suite from the repository's root. Vitest
 * gives each project workers of its own, which import that project's modules (the sandbox and
 * its schemas, for most) and end with it: as one project, two workers import them once and run
 * every package's files, and Vite transforms each source file once instead of once per package.
 * `endToEnd` makes it the project of the packages' end-to-end files, which the other leaves out.
 * Each package's own config is still what runs all its tests from its folder.
 */
export function oneProject(
  name: string,
  packages: Record<string, PackageProject>,
  { endToEnd }: { endToEnd: boolean },
): PackageProject {
  const tests = Object.entries(packages).map(([folder, { test = {} }]) => ({ folder, ...test }))
  const inFolders = (globs: 'include' | 'exclude') =>
    tests.flatMap(({ folder, [globs]: inFolder = [] }) =>
      inFolder.map((glob) => `${folder}/${glob}`),
    )
  // The longest any package gives its tests (the example shop's, which drive Chromium), and never
  // less than Vitest's defaults (5 s a test, 10 s a hook).
  const longest = (timeout: 'testTimeout' | 'hookTimeout', fallback: number) =>
    Math.max(fallback, ...tests.map((test) => test[timeout] ?? 0))
  const project = chargekitProject(name, {
    include: endToEnd
      ? tests.map(({ folder }) => `${folder}/${endToEndTests}`)
      : inFolders('include'),
    exclude: [
      ...configDefaults.exclude,
      ...inFolders('exclude'),
      ...(endToEnd ? [] : [endToEndTests]),
    ],
    // Every package's global setups its files need, each once: they provide what those inject.
    globalSetup: [
      ...new Set(
        tests.flatMap(({ folder, globalSetup = [] }) =>
          [globalSetup]
            .flat()
            .filter((setup) => endToEnd || !endToEndSetup.test(setup))
            .map((setup) => resolve(repositoryRoot, folder, setup)),
        ),
      ),
    ],
    testTimeout: longest('testTimeout', 5_000),
    hookTimeout: longest('hookTimeout', 10_000),
  })
  return { ...project, root: repositoryRoot }
}
