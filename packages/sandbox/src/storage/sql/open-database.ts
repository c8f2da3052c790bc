import type { SandboxLogger } from '../../logger'
import type { SqlDatabase } from './database'
import { migrate } from './migrate'
import { openPgliteDatabase } from './pglite-database'
import { openPostgresDatabase } from './postgres-database'

/** Where durable state lives: an embedded database in a folder, or a PostgreSQL server. */
export type DatabaseLocation = { data: string } | { database: string }

/**
 * Opens the database and brings its schema up to date (safe from several processes at once),
 * or throws saying why it cannot: a database written by a newer sandbox is refused unchanged.
 */
export async function openSqlDatabase(
  location: DatabaseLocation,
  logger?: SandboxLogger,
): Promise<SqlDatabase> {
  const db =
    'data' in location
      ? await openPgliteDatabase(location.data)
      : await openPostgresDatabase(location.database)
  const where = describeLocation(location)
  try {
    const { from, to } = await migrate(db, where)
    if (from > 0 && from < to) {
      logger?.info(`upgraded the schema of ${where} from version ${from} to ${to}`)
    }
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}

/** The location for people: never a password. */
export function describeLocation(location: DatabaseLocation): string {
  return 'data' in location
    ? `the data folder ${location.data}`
    : `the PostgreSQL database ${withoutPassword(location.database)}`
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(an unparsable URL)'
  }
}
