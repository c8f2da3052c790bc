import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { databaseTempFolder } from '../../../scripts/database-temp-dir'
import type { RecordedStore } from '../../../scripts/record-released-stores'
import type { StartSandboxOptions } from '../src/index'
import { sandboxMigrations } from '../src/storage/sql/migrate'
import { openPgliteDatabase } from '../src/storage/sql/pglite-database'
import { openPostgresDatabase } from '../src/storage/sql/postgres-database'
import { eventually, startTestSandbox, TestClock, type TestSandbox } from '../src/testing/index'
import { createDatabase } from './postgres-server'

/**
 * Every released version's stores, as its own sandbox left them (recorded by
 * `pnpm fixtures:stores` from the release's commit): this version must open them, upgrade their
 * schema, and serve and resume everything they hold.
 */
const fixtures = new URL('./fixtures/released-stores/', import.meta.url)
const releases = readdirSync(fixtures)

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup()
})

const postgresUrl = inject('postgresUrl')
const hour = 60 * 60 * 1000

it('has the stores of at least one release to open', () => {
  expect(releases.length).toBeGreaterThan(0)
})

for (const release of releases) {
  const recorded = JSON.parse(
    readFileSync(new URL(`${release}/expected.json`, fixtures), 'utf8'),
  ) as { dataFolder: RecordedStore; postgres: RecordedStore }

  describe(`stores written by @chargekit/sandbox ${release}`, () => {
    it('a data folder: every charge, event and pending delivery, on the current schema', async () => {
      const folder = await databaseTempFolder('released')
      cleanups.push(() => rm(folder, { recursive: true, force: true }))
      const archive = new URL(`${release}/data-folder.tar.xz`, fixtures).pathname
      await promisify(execFile)('tar', ['-xJf', archive, '-C', folder])
      await expectServed({ data: folder }, recorded.dataFolder)
    }, 60_000)

    it.skipIf(postgresUrl === undefined)(
      'a PostgreSQL database: every charge, event and pending delivery, on the current schema',
      async () => {
        const database = await createDatabase(
          postgresUrl as string,
          `released_${randomUUID().slice(0, 8)}`,
        )
        cleanups.push(database.drop)
        const dump = readFileSync(new URL(`${release}/postgres.sql`, fixtures), 'utf8')
        const client = new pg.Client({ connectionString: database.url })
        await client.connect()
        try {
          await client.query(dump)
        } finally {
          await client.end()
        }
        await expectServed({ database: database.url }, recorded.postgres)
      },
      60_000,
    )
  })
}

/**
 * Starts this version's sandbox on the released store and checks it serves what the released
 * one did, and picks up the work it left: each failed delivery is attempted again and the
 * acquirer's unconfirmed captures are confirmed.
 */
async function expectServed(
  location: Pick<StartSandboxOptions, 'data' | 'database'>,
  recorded: RecordedStore,
) {
  // A day after the latest retry the released sandbox had scheduled: everything it left waiting
  // for the clock is due, however soon after recording the test runs.
  const latest = Math.max(
    Date.now(),
    ...recorded.events.map((event) => Date.parse(event.nextAttemptAt ?? '') || 0),
  )
  const test = await startTestSandbox({ ...location, clock: new TestClock(latest + 24 * hour) })
  try {
    // A store from before accounts had signing secrets gets one at this first start.
    const [account] = test.sandbox.accounts
    expect(account?.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect((await test.api('GET', '/test/signing_secret')).body).toEqual({
      signing_secret: account?.signingSecret,
    })
    for (const charge of recorded.charges) {
      const answer = await test.api('GET', `/charges/${charge.id}`)
      expect(answer.status).toBe(200)
      expect({
        id: answer.body.id,
        amount: answer.body.amount,
        currency: answer.body.currency,
      }).toEqual(charge)
    }
    const served = await allEvents(test)
    expect(served.map(({ id, type, object_id }) => ({ id, type, object_id }))).toEqual(
      expect.arrayContaining(
        recorded.events.map(({ id, type, object_id }) => ({ id, type, object_id })),
      ),
    )

    const pending = recorded.events.filter((event) => event.nextAttemptAt !== null)
    expect(pending.length).toBeGreaterThan(0)
    await eventually(
      async () => {
        const attempts = new Map(
          (await allEvents(test)).map((event) => [event.id, 1 + event.retries_log.length]),
        )
        return pending.every((event) => (attempts.get(event.id) ?? 0) > event.attempts)
      },
      { timeoutMs: 30_000, what: 'another attempt at every pending delivery' },
    )
    for (const payment of recorded.pendingPayments) {
      await eventually(
        async () => (await test.api('GET', `/payments/${payment}`)).body.status === 'success',
        { timeoutMs: 30_000, what: `the acquirer's confirmation of ${payment}` },
      )
    }
  } finally {
    await test.close()
  }
  await expectCurrentSchema(location)
}

// biome-ignore lint/suspicious/noExplicitAny: events as the API answers them, read for a few fields
async function allEvents(test: TestSandbox): Promise<any[]> {
  const events = []
  for (let page = 1; ; page++) {
    const answer = await test.api('GET', `/events?per_page=100&page=${page}`)
    expect(answer.status).toBe(200)
    events.push(...answer.body.collection)
    if (events.length >= answer.body.pagination.total) return events
  }
}

/** The store's schema as the sandbox left it: migrated to this version's newest. */
async function expectCurrentSchema(location: Pick<StartSandboxOptions, 'data' | 'database'>) {
  // Opened without migrating, to see what starting the sandbox did.
  const db =
    location.data !== undefined
      ? await openPgliteDatabase(location.data)
      : await openPostgresDatabase(location.database as string)
  try {
    const [newest] = await db.query<{ version: number }>(
      'SELECT max(version) AS version FROM sandbox_schema_migrations',
    )
    expect(newest?.version).toBe(sandboxMigrations().length)
  } finally {
    await db.close()
  }
}
