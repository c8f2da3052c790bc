import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { inject, type ProvidedContext } from 'vitest'
import { pgliteTemplate } from '../../../scripts/pglite-template'
import type {} from '../../../scripts/provided-context'
import {
  createMemoryStore,
  type Sandbox,
  type StartSandboxOptions,
  startSandbox,
} from '../src/index'
import { openSqlDatabase } from '../src/storage/sql/open-database'

/** Where the sandboxes of a test run keep their state; the test project decides. */
export type StoreUnderTest = ProvidedContext['sandboxStore']

/** The store this test file runs on: memory unless its project says otherwise. */
export const storeUnderTest: StoreUnderTest = inject('sandboxStore') ?? 'memory'

/**
 * Starts a sandbox on the store under test, each on its own fresh state (a new data folder, a
 * new PostgreSQL database), which close() removes. Options that name a store win.
 */
export async function startSandboxUnderTest(options: StartSandboxOptions): Promise<Sandbox> {
  if (
    storeUnderTest === 'memory' ||
    options.store !== undefined ||
    options.data !== undefined ||
    options.database !== undefined
  ) {
    return startSandbox(options)
  }
  const state = await freshStoreState()
  const sandbox = await startSandbox({ ...options, ...state.options }).catch(
    async (error: unknown) => {
      await state.remove()
      throw error
    },
  )
  return {
    ...sandbox,
    async close() {
      await sandbox.close()
      await state.remove()
    },
  }
}

export interface FreshState {
  /** What to start each sandbox on this state with. */
  options: Pick<StartSandboxOptions, 'store' | 'data' | 'database'>
  remove(): Promise<void>
}

/**
 * New, empty state on the store under test (a memory store, a data folder, a database), for
 * sandboxes started one after another on it, as a restart does; remove() deletes it.
 */
export async function freshStoreState(): Promise<FreshState> {
  if (storeUnderTest === 'memory') {
    return { options: { store: createMemoryStore() }, remove: async () => {} }
  }
  return storeUnderTest === 'embedded' ? freshDataFolder() : freshDatabase()
}

/**
 * A new embedded database costs seconds (PGlite initializes its cluster), opening an existing
 * one a fraction of a second: the first folder of a test file is made once (from the run's
 * dump of a fresh database), migrated, and copied for every sandbox.
 */
let template: Promise<string> | undefined

/**
 * Makes what every sandbox of the file starts from (the embedded database's first folder), for
 * a `beforeAll`: a test that starts its own sandboxes then does not pay for it in its time.
 */
export async function prepareStoreUnderTest(): Promise<void> {
  if (storeUnderTest !== 'embedded') return
  template ??= (async () => {
    const folder = await mkdtemp(join(tmpdir(), 'chargekit-template-'))
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }))
    // From the dump of a fresh database: a second, not the seconds initializing one takes.
    await (await PGlite.create({ dataDir: folder, loadDataDir: pgliteTemplate() })).close()
    await (await openSqlDatabase({ data: folder })).close()
    return folder
  })()
  await template
}

async function freshDataFolder(): Promise<FreshState> {
  await prepareStoreUnderTest()
  if (template === undefined) throw new Error('no template folder')
  const data = await mkdtemp(join(tmpdir(), 'chargekit-data-'))
  // cp(1) copies PGlite's thousand small files several times faster than fs.cp.
  await promisify(execFile)('cp', ['-R', `${await template}/.`, data])
  return { options: { data }, remove: () => rm(data, { recursive: true, force: true }) }
}

let databases = 0

async function freshDatabase(): Promise<FreshState> {
  const created = await createDatabase(
    inject('postgresUrl'),
    `sandbox_${process.pid}_${++databases}`,
  )
  return { options: { database: created.url }, remove: created.drop }
}

/** Creates database `name` on the server at `serverUrl`; `drop()` removes it again. */
export async function createDatabase(
  serverUrl: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  await onServer(serverUrl, `CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}
