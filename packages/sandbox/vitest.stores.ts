import { postgresAvailable } from '../../scripts/local-postgres'
import type {} from '../../scripts/provided-context'
import { rerunProject } from '../../vitest.shared'

/**
 * The sandbox's end-to-end test files that also run on a SQL store: the same tests, with every
 * sandbox their harness starts keeping its state on PostgreSQL (a fresh database on one
 * throw-away server per run) or in an embedded database (a fresh data folder), so the lifecycle,
 * the event log and timed work are proven on SQL, not only in memory.
 */
const onSqlStores = [
  'test/flows.test.ts',
  'test/events.test.ts',
  'test/delivery-sandbox.test.ts',
  'test/simulated-acquirer.test.ts',
  'test/money-invariants.test.ts',
  'test/event-coverage.test.ts',
  'test/object-lists.test.ts',
  'test/payment-methods.test.ts',
]

/**
 * Both SQL stores run the same store code over two drivers, and the drivers themselves are proven
 * by the store and work-queue contract suites, the kill -9 and restart tests: with PostgreSQL at
 * hand, the embedded database runs only the core lifecycle and event log end to end, which saves
 * a minute of test time; without it, the embedded database runs them all.
 */
const onEmbeddedBesidePostgres = ['test/flows.test.ts', 'test/events.test.ts']

function project(
  name: string,
  store: 'embedded' | 'postgres',
  include: readonly string[],
  globalSetup: string[] = [],
) {
  return rerunProject(name, 'packages/sandbox', include, {
    provide: { sandboxStore: store },
    globalSetup,
    // Every step of these flows is a few database round trips: on a busy two-core machine a
    // multi-step test takes 2–5 s, at Vitest's default 5 s. The limit is there to end a test
    // that hangs, as the same files' 60 s does in the one project that runs them in memory.
    testTimeout: 30_000,
  })
}

export const sandboxStoreProjects = postgresAvailable()
  ? [
      project('sandbox (PostgreSQL)', 'postgres', onSqlStores, ['./test/postgres-server.ts']),
      project('sandbox (embedded)', 'embedded', onEmbeddedBesidePostgres, [
        './test/data-folder-setup.ts',
      ]),
    ]
  : [project('sandbox (embedded)', 'embedded', onSqlStores, ['./test/data-folder-setup.ts'])]
