import type { SqlQuery } from '@chargekit/webhooks'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'

/** A database the SQL delivery store runs on in tests, in the shape its users' drivers have. */
export interface TestDatabase {
  name: string
  /** The driver's own query, as users pass it (pool.query / db.query). */
  query: SqlQuery
  /** Runs `work` in one transaction, with a query bound to it; rolls back if `work` throws. */
  transaction<T>(work: (query: SqlQuery) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** Embedded PGlite in memory, or started from `loadDataDir`, the files of an earlier one. */
export async function openPglite(
  loadDataDir?: Blob,
): Promise<TestDatabase & { restart(): Promise<TestDatabase> }> {
  const db = await PGlite.create(loadDataDir === undefined ? {} : { loadDataDir })
  return {
    name: 'PGlite',
    query: (text, params) => db.query(text, params),
    transaction: (work) => db.transaction((tx) => work((text, params) => tx.query(text, params))),
    close: () => db.close(),
    /** Stops this database and starts another on its files, as a process restart does. */
    async restart() {
      const files = await db.dumpDataDir('none')
      await db.close()
      return openPglite(files)
    },
  }
}

/** A pool of connections to a PostgreSQL server: what one merchant process holds. */
export function openPostgres(url: string): TestDatabase {
  const pool = new pg.Pool({ connectionString: url, max: 8 })
  return {
    name: 'PostgreSQL',
    query: (text, params) => pool.query(text, params),
    async transaction(work) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await work((text, params) => client.query(text, params))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

let tables = 0

/** A table name no other test of this run uses, so tests share a database but no rows. */
export function freshTable(prefix: string): string {
  tables++
  return `${prefix}_${process.pid}_${tables}`
}
