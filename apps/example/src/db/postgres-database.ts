import pg from 'pg'
import type { Database, SqlExecutor, SqlParam } from './database.js'

/** A real PostgreSQL server through node-postgres; int8 already arrives as text there. */
export async function openPostgresDatabase(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 10 })
  // Fail at start-up, with the cause, rather than at the first customer's checkout.
  const probe = await pool.connect().catch((error: unknown) => {
    void pool.end()
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`Could not connect to DATABASE_URL (${reason}); check the URL or unset it.`)
  })
  probe.release()
  const executor = (target: pg.Pool | pg.PoolClient): SqlExecutor => ({
    async query<Row extends object>(sql: string, params: readonly SqlParam[] = []) {
      const result = await target.query<Row & pg.QueryResultRow>(sql, [...params])
      return result.rows
    },
  })
  return {
    driver: 'postgres',
    ...executor(pool),
    async transaction(work) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await work(executor(client))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
