import { mkdirSync } from 'node:fs'
import { SandboxError } from '../../errors'
import type { SqlDatabase, SqlExecutor, SqlParam } from './database'

/** Embedded PostgreSQL (WASM) persisted in `dataDir`, created when missing. */
export async function openPgliteDatabase(dataDir: string): Promise<SqlDatabase> {
  // Loaded on demand: a sandbox in memory never pays for the WASM build.
  const { PGlite, types } = await import('@electric-sql/pglite')
  try {
    mkdirSync(dataDir, { recursive: true })
  } catch (error) {
    throw new SandboxError(`Cannot create the data folder ${dataDir}: ${(error as Error).message}`)
  }
  // int8 as text keeps amounts and counters exact (PGlite's default would make them JS numbers).
  const db = await PGlite.create({ dataDir, parsers: { [types.INT8]: (value: string) => value } })
  const executor = (target: Pick<typeof db, 'query'>): SqlExecutor => ({
    async query<Row extends object>(sql: string, params: readonly SqlParam[] = []) {
      return (await target.query<Row>(sql, [...params])).rows
    },
  })
  return {
    driver: 'pglite',
    ...executor(db),
    transaction: (work) => db.transaction((tx) => work(executor(tx))),
    close: () => db.close(),
  }
}
