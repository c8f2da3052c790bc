import { PGlite, types } from '@electric-sql/pglite'
import type { Database, SqlExecutor, SqlParam } from './database.js'

/** Embedded PostgreSQL (WASM): in memory, or persisted under `dataDir` when given. */
export async function openPgliteDatabase(dataDir?: string): Promise<Database> {
  // int8 as text keeps minor-unit amounts exact (PGlite's default would make them JS numbers).
  const parsers = { [types.INT8]: (value: string) => value }
  const db = await PGlite.create({
    parsers,
    ...(dataDir === undefined ? {} : { dataDir }),
  })
  const executor = (target: Pick<PGlite, 'query'>): SqlExecutor => ({
    async query<Row extends object>(sql: string, params: readonly SqlParam[] = []) {
      const result = await target.query<Row>(sql, [...params])
      return result.rows
    },
  })
  return {
    driver: 'pglite',
    ...executor(db),
    transaction: (work) => db.transaction((tx) => work(executor(tx))),
    close: () => db.close(),
  }
}
