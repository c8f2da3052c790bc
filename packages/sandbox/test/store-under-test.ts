import { randomUUID } from 'node:crypto'
import { inject, type ProvidedContext } from 'vitest'
import { copyDataFolder } from '../../../scripts/database-temp-dir'
import type {} from '../../../scripts/provided-context'
import { createMemoryStore, type StartSandboxOptions } from '../src/index'
import { createDatabase, templateDatabase } from './postgres-server'

/** Where the sandboxes of a test run keep their state; the test project decides. */
export type StoreUnderTest = ProvidedContext['sandboxStore']

/** The store this test file runs on: memory unless its project says otherwise. */
export const storeUnderTest: StoreUnderTest = inject('sandboxStore') ?? 'memory'

export interface FreshState {
  /** What to start each sandbox on this state with. */
  options: Pick<StartSandboxOptions, 'store' | 'data' | 'database'>
  remove(): Promise<void>
}

/**
 * New, empty state on the store under test (a memory store, a data folder, a database): the
 * `state` of `startTestSandbox`, and for sandboxes started one after another on it, as a
 * restart does; remove() deletes it.
 */
export async function freshStoreState(): Promise<FreshState> {
  if (storeUnderTest === 'memory') {
    return { options: { store: createMemoryStore() }, remove: async () => {} }
  }
  return storeUnderTest === 'embedded' ? freshDataFolder() : freshDatabase()
}

/** A new data folder holding an empty, migrated embedded database; remove() deletes it. */
export async function freshDataFolder(): Promise<FreshState & { options: { data: string } }> {
  const copy = await copyDataFolder(inject('sandboxDataFolder'), 'data')
  return { options: { data: copy.path }, remove: copy.remove }
}

/** Whether this run has a PostgreSQL server (see postgres-server.ts): not where none is installed. */
export const postgresInRun = inject('postgresUrl') !== undefined

/**
 * A new database on the run's PostgreSQL server (see postgres-server.ts), with the sandbox's
 * tables and no rows; remove() drops it. Test files run at once on that server: each database
 * gets a name of its own.
 */
export async function freshDatabase(): Promise<FreshState & { options: { database: string } }> {
  const serverUrl = inject('postgresUrl')
  if (serverUrl === undefined) throw new Error('No PostgreSQL server in this run')
  const name = `sandbox_${randomUUID().replaceAll('-', '')}`
  const created = await createDatabase(serverUrl, name, templateDatabase)
  return { options: { database: created.url }, remove: created.drop }
}
