import type { SqlQuery } from '@chargekit/webhooks'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { pgliteFolder } from '../../../../scripts/pglite-template'

/** A database the SQL delivery store runs on in tests, in the shape its users' drivers have. */
export interface TestDatabase {
  name: string
  /** The driver's own query, as users pass it (pool.query / db.query). */
  query: SqlQuery
  /** Runs `work` in one transaction, with a query bound to it; rolls back if `work` throws. */
  transaction<T>(work: (query: SqlQuery) => Promise<T>): Promise<T>
  close(): Promise<void>
}

type RestartableDatabase = TestDatabase & { restart(): Promise<TestDatabase> }

/** Embedded PGlite on a copy of a fresh database's data folder, deleted when it closes. */
export async function openPglite(): Promise<RestartableDatabase> {
  return pgliteOn(await pgliteFolder())
}

async function pgliteOn(folder: {
  path: string
  remove(): Promise<void>
}): Promise<RestartableDatabase> {
  const db = await PGlite.create({ dataDir: folder.path })
  return {
    name: 'PGlite',
    query: (text, params) => db.query(text, params),
    transaction: (work) => db.transaction((tx) => work((text, params) => tx.query(text, params))),
    async close() {
      await db.close()
      await folder.remove()
    },
    /** Stops this database and starts another on its files, as a process restart does. */
    async restart() {
      await db.close()
      return pgliteOn(folder)
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
