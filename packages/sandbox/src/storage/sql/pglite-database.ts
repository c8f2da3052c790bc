import { mkdirSync } from 'node:fs'
import { SandboxError } from '../../errors'
import { lockDataFolder } from './data-folder-lock'
import type { SqlDatabase, SqlExecutor, SqlParam } from './database'

/**
 * Embedded PostgreSQL (WASM) persisted in `dataDir`, created when missing. One process at a time:
 * a second one on the same folder is refused (PGlite would corrupt it).
 */
export async function openPgliteDatabase(dataDir: string): Promise<SqlDatabase> {
  // Loaded on demand: a sandbox in memory never pays for the WASM build.
  const { PGlite, types } = await import('@electric-sql/pglite')
  try {
    mkdirSync(dataDir, { recursive: true })
  } catch (error) {
    throw new SandboxError(`Cannot create the data folder ${dataDir}: ${(error as Error).message}`)
  }
  const unlock = lockDataFolder(dataDir)
  let db: InstanceType<typeof PGlite>
  try {
    // int8 as text keeps amounts and counters exact (PGlite's default would make them JS numbers).
    db = await PGlite.create({ dataDir, parsers: { [types.INT8]: (value: string) => value } })
  } catch (error) {
    unlock()
    throw error
  }
  const executor = (target: Pick<typeof db, 'query' | 'exec'>): SqlExecutor => ({
    async query<Row extends object>(sql: string, params: readonly SqlParam[] = []) {
      return (await target.query<Row>(sql, [...params])).rows
    },
    async execute(script) {
      await target.exec(script)
    },
  })
  return {
    driver: 'pglite',
    ...executor(db),
    transaction: (work) => db.transaction((tx) => work(executor(tx))),
    acrossProcesses: (_key, task) => task(),
    // The only process: claims left by an earlier one are released when the store opens.
    claims: { by: 0, gone: () => 'false' },
    async close() {
      await db.close()
      unlock()
    },
  }
}
