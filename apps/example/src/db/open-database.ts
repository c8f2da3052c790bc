import type { Database } from './database.js'
import { openPgliteDatabase } from './pglite-database.js'
import { openPostgresDatabase } from './postgres-database.js'
import { migrate } from './schema.js'

export interface DatabaseOptions {
  /** A PostgreSQL connection string; without one the shop embeds PGlite. */
  databaseUrl?: string | undefined
  /** Where PGlite keeps its files; in memory when absent. */
  pgliteDataDir?: string | undefined
  /**
   * The files of a fresh PGlite database (its `dumpDataDir()`), to start from instead of
   * initializing a new one: about 0.4 s instead of 3 s, for tests that open many.
   */
  pgliteTemplate?: Blob | undefined
}

/** Opens the configured driver and brings its tables up to date. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const db = options.databaseUrl
    ? await openPostgresDatabase(options.databaseUrl)
    : await openPgliteDatabase(options.pgliteDataDir, options.pgliteTemplate)
  try {
    await migrate(db)
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}
