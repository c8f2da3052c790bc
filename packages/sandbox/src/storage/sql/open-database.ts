import type { SqlDatabase } from './database'
import { openPgliteDatabase } from './pglite-database'
import { openPostgresDatabase } from './postgres-database'
import { migrate } from './schema'

/** Where durable state lives: an embedded database in a folder, or a PostgreSQL server. */
export type DatabaseLocation = { data: string } | { database: string }

/** Opens the database and brings its tables up to date (safe from several processes at once). */
export async function openSqlDatabase(location: DatabaseLocation): Promise<SqlDatabase> {
  const db =
    'data' in location
      ? await openPgliteDatabase(location.data)
      : await openPostgresDatabase(location.database)
  try {
    await migrate(db)
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}
