import { version as sandboxVersion } from '../../../package.json'
import { SandboxError } from '../../errors'
import type { SqlDatabase } from './database'
import { type MigrationFile, readMigrationFiles } from './migration-files'

/**
 * One forward step of the schema: `migrations/0002-signing-secrets.sql` is version 2. Versions
 * count up from 1 without gaps, and a released file never changes: databases already ran it.
 */
export interface Migration {
  version: number
  name: string
  sql: string
}

/** What opening a database did to its schema: `from` 0 is a new database. */
export interface MigrationResult {
  from: number
  to: number
}

const fileName = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.sql$/

/**
 * The migrations in the order they run, or an error naming the file that breaks the rules: a
 * name `NNNN-words.sql`, and the numbers 1, 2, 3… each once (two branches that each added a
 * `0002-…` must renumber one before merging).
 */
export function orderMigrations(files: readonly MigrationFile[]): Migration[] {
  const migrations = files
    .map(({ name, sql }) => {
      const match = fileName.exec(name)
      if (match === null) {
        throw new SandboxError(
          `Migration file ${name} is misnamed: expected NNNN-what-it-does.sql, such as 0002-signing-secrets.sql`,
        )
      }
      return { version: Number(match[1]), name: name.slice(0, -'.sql'.length), sql }
    })
    .sort((a, b) => a.version - b.version)
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new SandboxError(
        `Migration ${migration.name} should be number ${String(index + 1).padStart(4, '0')}: migrations are numbered 0001, 0002… each number once, without gaps`,
      )
    }
  })
  return migrations
}

let shipped: readonly Migration[] | undefined

/** The migrations of this version of the sandbox, newest last. */
export function sandboxMigrations(): readonly Migration[] {
  shipped ??= orderMigrations(readMigrationFiles())
  return shipped
}

// Any constant: it only has to be the same in every sandbox process migrating one database.
const migrationLockId = 0x636b5f73

/**
 * One row per migration run on this database. Every version of the sandbox reads this table to
 * learn the schema version before touching anything else, so its columns never change.
 */
const historyTable = `CREATE TABLE IF NOT EXISTS sandbox_schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  sandbox_version text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`

/**
 * Brings the database's schema up to the newest of `migrations`, running the ones it lacks in
 * order, in one transaction under an advisory lock: processes starting together on one
 * PostgreSQL database wait for each other, and the second finds nothing left to do; a migration
 * that fails leaves the database as it was.
 *
 * A database that a newer sandbox already migrated further is refused, before anything is
 * written: this version cannot know what those migrations changed.
 */
export async function migrate(
  db: SqlDatabase,
  where: string,
  migrations: readonly Migration[] = sandboxMigrations(),
): Promise<MigrationResult> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockId])
    await tx.execute(historyTable)
    const [newest] = await tx.query<{ version: number; name: string; sandbox_version: string }>(
      'SELECT version, name, sandbox_version FROM sandbox_schema_migrations ORDER BY version DESC LIMIT 1',
    )
    const from = newest?.version ?? 0
    const known = migrations.length
    if (newest !== undefined && from > known) {
      throw new SandboxError(
        `${capitalized(where)} has schema version ${from} (${newest.name}), written by @chargekit/sandbox ${newest.sandbox_version}; this @chargekit/sandbox ${sandboxVersion} knows versions up to ${known} and cannot use it. Nothing was changed. Open it with @chargekit/sandbox ${newest.sandbox_version} or newer, or give this version a new data folder or database.`,
      )
    }
    for (const migration of migrations.slice(from)) {
      await tx.execute(migration.sql)
      await tx.query(
        'INSERT INTO sandbox_schema_migrations (version, name, sandbox_version) VALUES ($1, $2, $3)',
        [migration.version, migration.name, sandboxVersion],
      )
    }
    return { from, to: known }
  })
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
