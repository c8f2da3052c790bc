import { connectPglite, connectPostgres, type SqlConnection } from '@chargekit/sandbox'
import { migrate } from './schema.js'

/**
 * The shop's database: embedded PGlite (no server, no native build) or a real PostgreSQL, through
 * the sandbox's own SQL connection, so every query in the shop is plain PostgreSQL that runs
 * unchanged on both, `bigint` columns arrive as exact decimal strings, `timestamptz` as `Date`
 * and `jsonb` as parsed JSON.
 */
export type Database = SqlConnection

export interface DatabaseOptions {
  /** A PostgreSQL connection string; without one the shop embeds PGlite. */
  databaseUrl?: string | undefined
  /** Where PGlite keeps its files; in memory when absent. */
  pgliteDataDir?: string | undefined
}

/** Opens the configured driver and brings its tables up to date. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const db = options.databaseUrl
    ? await connectPostgres(options.databaseUrl, {
        whenUnreachable: 'check DATABASE_URL or unset it',
      })
    : await connectPglite(options.pgliteDataDir)
  try {
    await migrate(db)
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}
