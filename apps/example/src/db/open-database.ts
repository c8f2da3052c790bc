import type { Database } from './database.js'
import { openPgliteDatabase } from './pglite-database.js'
import { openPostgresDatabase } from './postgres-database.js'
import { migrate } from './schema.js'

export interface DatabaseOptions {
  /** A PostgreSQL connection string; without one the shop embeds PGlite. */
  databaseUrl?: string | undefined
  /** Where PGlite keeps its files; in memory when absent. */
  pgliteDataDir?: string | undefined
}

/** Opens the configured driver and brings its tables up to date. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const db = options.databaseUrl
    ? await openPostgresDatabase(options.databaseUrl)
    : await openPgliteDatabase(options.pgliteDataDir)
  try {
    await migrate(db)
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}
