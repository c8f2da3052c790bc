import { fileURLToPath } from 'node:url'
import { postgresAvailable } from '../../scripts/local-postgres'
import type {} from '../../scripts/provided-context'
import { chargekitProject } from '../../vitest.shared'

/**
 * The sandbox's end-to-end test files that also run on a SQL store: the same tests, with every
 * sandbox their harness starts keeping its state in an embedded database (a fresh data folder)
 * or on PostgreSQL (a fresh database on one throw-away server per run), so the lifecycle, the
 * event log and timed work are proven on each store, not only in memory.
 */
const onEveryStore = [
  'test/flows.test.ts',
  'test/events.test.ts',
  'test/delivery-sandbox.test.ts',
  'test/simulated-acquirer.test.ts',
  'test/money-invariants.test.ts',
  'test/event-coverage.test.ts',
  'test/object-lists.test.ts',
  'test/payment-methods.test.ts',
]

const root = fileURLToPath(new URL('.', import.meta.url))

function project(name: string, store: 'embedded' | 'postgres', globalSetup: string[] = []) {
  return {
    ...chargekitProject(name, {
      include: onEveryStore,
      provide: { sandboxStore: store },
      globalSetup,
    }),
    root,
  }
}

export const sandboxStoreProjects = [
  project('sandbox (embedded)', 'embedded'),
  ...(postgresAvailable()
    ? [project('sandbox (PostgreSQL)', 'postgres', ['./test/postgres-server.ts'])]
    : []),
]
