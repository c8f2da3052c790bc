import type { SqlDatabase } from './database'

/**
 * Every table of the sandbox's durable state. Idempotent (`IF NOT EXISTS`), so starting a
 * sandbox migrates a fresh database and leaves an existing one alone.
 */
const statements: readonly string[] = []

// Any constant: it only has to be the same in every sandbox process migrating one database.
const migrationLockId = 0x636b5f73

/**
 * Runs every statement in one transaction under an advisory lock, so processes starting together
 * on one PostgreSQL database do not race on `CREATE TABLE IF NOT EXISTS` (which can fail with a
 * duplicate-key error when two sessions create the same table at once).
 */
export async function migrate(db: SqlDatabase): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockId])
    for (const statement of statements) await tx.query(statement)
  })
}
