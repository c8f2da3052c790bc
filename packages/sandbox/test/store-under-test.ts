import { randomUUID } from 'node:crypto'
import { describe, inject } from 'vitest'
import { copyDataFolder } from '../../../scripts/database-temp-dir'
import type {} from '../../../scripts/provided-context'
import { createMemoryStore, type StartSandboxOptions } from '../src/index'
import { createDatabase } from './postgres-server'

/** Where a test's sandboxes keep their state. */
type StoreUnderTest = 'memory' | 'embedded' | 'postgres'

export interface FreshState {
  /** What to start each sandbox on this state with. */
  options: Pick<StartSandboxOptions, 'store' | 'data' | 'database'>
  remove(): Promise<void>
}

/** Whether this run has a PostgreSQL server (see postgres-server.ts): not where none is installed. */
export const postgresInRun = inject('postgresUrl') !== undefined

/**
 * Runs a file's tests once per store, each time in a describe block of its own: in memory, on
 * the run's PostgreSQL server where it has one, and in an embedded database. `body` gets the
 * `state` to start the block's sandboxes with (see `freshStateOn`), so the lifecycle, the event
 * log and timed work are proven on SQL, not only in memory.
 *
 * Both SQL stores run the same store code over two drivers, and the drivers themselves are
 * proven by the store and work-queue contract suites and the kill -9 and restart tests. So with
 * PostgreSQL at hand, the embedded database runs only the files that say `embedded: 'always'`
 * (the core lifecycle and event log), which saves a minute of test time; without it, it runs
 * them all.
 *
 * One file for all its stores, rather than a Vitest project per store: each project starts
 * workers of its own, which import the sandbox again.
 */
export function onEachStore(
  { embedded }: { embedded: 'always' | 'without PostgreSQL' },
  body: (freshStoreState: () => Promise<FreshState>) => void,
): void {
  const stores: StoreUnderTest[] = ['memory']
  if (postgresInRun) stores.push('postgres')
  if (embedded === 'always' || !postgresInRun) stores.push('embedded')
  describe.each(stores)('on the %s store', (store) => body(() => freshStateOn(store)))
}

/**
 * New, empty state on `store` (a memory store, a data folder, a database): the `state` of
 * `startTestSandbox`, and for sandboxes started one after another on it, as a restart does;
 * remove() deletes it.
 */
async function freshStateOn(store: StoreUnderTest): Promise<FreshState> {
  if (store === 'memory') {
    return { options: { store: createMemoryStore() }, remove: async () => {} }
  }
  return store === 'embedded' ? freshDataFolder() : freshDatabase()
}

/** A new data folder holding an empty, migrated embedded database; remove() deletes it. */
export async function freshDataFolder(): Promise<FreshState & { options: { data: string } }> {
  const copy = await copyDataFolder(inject('sandboxDataFolder'), 'data')
  return { options: { data: copy.path }, remove: copy.remove }
}

/**
 * A new database on the run's PostgreSQL server (see postgres-server.ts), with the sandbox's
 * tables and no rows; remove() drops it. Test files run at once on that server: each database
 * gets a name of its own.
 */
export async function freshDatabase(): Promise<FreshState & { options: { database: string } }> {
  const serverUrl = inject('postgresUrl')
  const template = inject('sandboxTemplate')
  if (serverUrl === undefined || template === undefined) {
    throw new Error('No PostgreSQL server in this run')
  }
  const name = `sandbox_${randomUUID().replaceAll('-', '')}`
  const created = await createDatabase(serverUrl, name, template)
  return { options: { database: created.url }, remove: created.drop }
}
