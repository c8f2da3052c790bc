import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { pgliteFolder } from '../../../scripts/pglite-template'
import type { SqlDatabase } from '../src/storage/sql/database'
import {
  type Migration,
  migrate,
  orderMigrations,
  sandboxMigrations,
} from '../src/storage/sql/migrate'
import { type DatabaseLocation, openSqlDatabase } from '../src/storage/sql/open-database'
import { openPgliteDatabase } from '../src/storage/sql/pglite-database'
import { openPostgresDatabase } from '../src/storage/sql/postgres-database'
import { createDatabase } from './postgres-server'

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

const postgresUrl = inject('postgresUrl')

/** An empty database of each driver, without the sandbox's tables: as a user's new one is. */
const drivers = {
  async 'embedded (PGlite)'(): Promise<DatabaseLocation> {
    const folder = await pgliteFolder()
    cleanups.push(folder.remove)
    return { data: folder.path }
  },
  async PostgreSQL(): Promise<DatabaseLocation> {
    if (postgresUrl === undefined) throw new Error('No PostgreSQL server in this run')
    const created = await createDatabase(postgresUrl, `migrations_${randomUUID().slice(0, 8)}`)
    cleanups.push(created.drop)
    return { database: created.url }
  },
}

/** Opens the database without migrating it, to look at it or prepare it as a test needs. */
function openRaw(location: DatabaseLocation): Promise<SqlDatabase> {
  return 'data' in location
    ? openPgliteDatabase(location.data)
    : openPostgresDatabase(location.database)
}

async function tables(db: SqlDatabase): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
  )
  return rows.map((row) => row.name)
}

async function history(db: SqlDatabase) {
  return db.query<{ version: number; name: string }>(
    'SELECT version, name FROM sandbox_schema_migrations ORDER BY version',
  )
}

const shipped = sandboxMigrations()

/** The shipped migrations and one more, as the next version of the sandbox would have. */
function withNext(...extra: Omit<Migration, 'version'>[]): Migration[] {
  return [
    ...shipped,
    ...extra.map((migration, index) => ({ ...migration, version: shipped.length + index + 1 })),
  ]
}

describe('the shipped migrations', () => {
  it('are numbered 1, 2, 3… and named after what they do', () => {
    expect(shipped.length).toBeGreaterThan(0)
    expect(shipped.map((migration) => migration.version)).toEqual(
      shipped.map((_, index) => index + 1),
    )
    expect(shipped[0]?.name).toBe('0001-initial')
  })
})

describe('orderMigrations', () => {
  const file = (name: string) => ({ name, sql: 'SELECT 1' })

  it('orders the files by number', () => {
    expect(
      orderMigrations([file('0002-second.sql'), file('0001-first.sql')]).map((m) => m.name),
    ).toEqual(['0001-first', '0002-second'])
  })

  it('refuses a misnamed file, a gap and a number taken twice, naming the file', () => {
    expect(() => orderMigrations([file('0001-first.sql'), file('2-second.sql')])).toThrow(
      'Migration file 2-second.sql is misnamed: expected NNNN-what-it-does.sql',
    )
    expect(() => orderMigrations([file('0001-first.sql'), file('0003-third.sql')])).toThrow(
      'Migration 0003-third should be number 0002',
    )
    expect(() =>
      orderMigrations([file('0001-first.sql'), file('0002-a.sql'), file('0002-b.sql')]),
    ).toThrow('Migration 0002-b should be number 0003')
  })
})

for (const [driver, emptyDatabase] of Object.entries(drivers)) {
  describe.skipIf(driver === 'PostgreSQL' && postgresUrl === undefined)(driver, () => {
    it('records each migration it runs, and runs none twice', async () => {
      const location = await emptyDatabase()
      const first = await openSqlDatabase(location)
      await first.close()
      const again = await openSqlDatabase(location)
      try {
        expect(await history(again)).toEqual(
          shipped.map(({ version, name }) => ({ version, name })),
        )
        expect(await tables(again)).toEqual([
          'sandbox_challenges',
          'sandbox_events',
          'sandbox_idempotency',
          'sandbox_objects',
          'sandbox_schema_migrations',
          'sandbox_signing_secrets',
          'sandbox_work',
        ])
      } finally {
        await again.close()
      }
    }, 60_000)

    it('runs the migrations a database lacks, in order, and all or none of them', async () => {
      const location = await emptyDatabase()
      await (await openSqlDatabase(location)).close()
      const db = await openRaw(location)
      try {
        const where = 'the test database'
        const notes = {
          name: 'notes',
          sql: 'CREATE TABLE sandbox_notes (id text PRIMARY KEY); INSERT INTO sandbox_notes VALUES ($$kept$$)',
        }
        const broken = { name: 'broken', sql: 'ALTER TABLE sandbox_notes ADD COLUMN nope nope' }
        await expect(migrate(db, where, withNext(notes, broken))).rejects.toThrow('nope')
        expect(await tables(db)).not.toContain('sandbox_notes')
        expect(await history(db)).toHaveLength(shipped.length)

        const tags = { name: 'tags', sql: 'ALTER TABLE sandbox_notes ADD COLUMN tag text' }
        expect(await migrate(db, where, withNext(notes, tags))).toEqual({
          from: shipped.length,
          to: shipped.length + 2,
        })
        expect(await db.query('SELECT id, tag FROM sandbox_notes')).toEqual([
          { id: 'kept', tag: null },
        ])
        expect((await history(db)).slice(shipped.length)).toEqual([
          { version: shipped.length + 1, name: 'notes' },
          { version: shipped.length + 2, name: 'tags' },
        ])
      } finally {
        await db.close()
      }
    }, 60_000)

    it('refuses a database a newer sandbox migrated, and changes nothing in it', async () => {
      const location = await emptyDatabase()
      // What a newer sandbox leaves: its migrations table says a version this one lacks.
      const newer = await openRaw(location)
      await migrate(newer, 'x', [
        { version: 1, name: '0001-initial', sql: 'SELECT 1' },
        ...Array.from({ length: shipped.length + 1 }, (_, index) => ({
          version: index + 2,
          name: `${String(index + 2).padStart(4, '0')}-from-the-future`,
          sql: 'SELECT 1',
        })),
      ])
      await newer.close()

      const future = shipped.length + 2
      await expect(openSqlDatabase(location)).rejects.toThrow(
        new RegExp(
          `has schema version ${future} \\(${String(future).padStart(4, '0')}-from-the-future\\), written by @chargekit/sandbox .+; this @chargekit/sandbox .+ knows versions up to ${shipped.length} and cannot use it\\. Nothing was changed\\.`,
        ),
      )
      const after = await openRaw(location)
      try {
        expect(await tables(after)).toEqual(['sandbox_schema_migrations'])
        expect(await history(after)).toHaveLength(future)
      } finally {
        await after.close()
      }
    }, 60_000)
  })
}

describe.skipIf(postgresUrl === undefined)('PostgreSQL, several processes starting at once', () => {
  it('migrates a new database once, and every process starts', async () => {
    const location = await drivers.PostgreSQL()
    // Each open has its own connection pools, as separate processes would.
    const opened = await Promise.all(Array.from({ length: 4 }, () => openSqlDatabase(location)))
    try {
      const [db] = opened as [SqlDatabase]
      expect(await history(db)).toEqual(shipped.map(({ version, name }) => ({ version, name })))
    } finally {
      await Promise.all(opened.map((db) => db.close()))
    }
  }, 60_000)
})
