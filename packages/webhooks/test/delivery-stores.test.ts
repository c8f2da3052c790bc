import {
  createMemoryDeliveryStore,
  createSqlDeliveryStore,
  type SqlDeliveryStore,
} from '@chargekit/webhooks'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { describeDeliveryStoreContract, leaseOf } from './support/delivery-store-contract'
import { configurationRefusal } from './support/refusal'
import { freshTable, openPglite, openPostgres, type TestDatabase } from './support/sql-databases'

// The run's server (see vitest.config.ts): skipped only outside CI on a machine without
// PostgreSQL; in CI a missing server fails the run.
const postgres = inject('postgresUrl')

const databases: Array<{ name: string; open: () => Promise<TestDatabase>; skip: boolean }> = [
  { name: 'PGlite', open: openPglite, skip: false },
  {
    name: 'PostgreSQL',
    open: async () => openPostgres(postgres ?? ''),
    skip: postgres === undefined,
  },
]

describeDeliveryStoreContract('memory', () => {
  let now = 1_000
  return {
    store: createMemoryDeliveryStore({ now: () => now }),
    expireClaims: () => {
      now += 60_000
    },
  }
})

for (const { name, open, skip } of databases) {
  describe.skipIf(skip)(name, () => {
    let db: TestDatabase
    beforeAll(async () => {
      db = await open()
    }, 30_000)
    afterAll(async () => {
      await db?.close()
    })

    /** A store on a table of its own, migrated. */
    async function freshStore(options: { retainMs?: number } = {}) {
      const table = freshTable('deliveries')
      const store = createSqlDeliveryStore({ query: db.query, table, ...options })
      await store.migrate()
      return { store, table }
    }

    /** Moves times in `table` back by `ms`, as if that much time had passed. */
    async function travel(table: string, ms: number) {
      await db.query(
        `UPDATE ${table} SET lease_until = lease_until - $1::double precision * interval '1 millisecond',
           completed_at = completed_at - $1::double precision * interval '1 millisecond'`,
        [ms],
      )
    }

    describeDeliveryStoreContract(`createSqlDeliveryStore on ${name}`, async () => {
      const { store, table } = await freshStore()
      return { store, expireClaims: () => travel(table, 60_000) }
    })

    it('completes inside the caller’s transaction: committed with it, or rolled back with it', async () => {
      const { store } = await freshStore()
      const lease = await leaseOf(store, 'ev_rolled_back')
      await expect(
        db.transaction(async (query) => {
          await store.completeIn(query, 'ev_rolled_back')
          throw new Error('the handler failed after marking the event')
        }),
      ).rejects.toThrow('the handler failed')
      // Still the first delivery's claim, which it can release for the retry.
      expect(await store.claim('ev_rolled_back', 60_000)).toEqual({ status: 'in_flight' })
      await store.release('ev_rolled_back', lease)
      expect(await store.claim('ev_rolled_back', 60_000)).toMatchObject({ status: 'claimed' })

      await leaseOf(store, 'ev_committed')
      await db.transaction((query) => store.completeIn(query, 'ev_committed'))
      expect(await store.claim('ev_committed', 60_000)).toEqual({ status: 'done' })
    })

    it('prunes rows past the retention, by hand and on a claim, keeping newer ones', async () => {
      const hour = 3_600_000
      const { store, table } = await freshStore({ retainMs: 30 * hour })
      for (const id of ['ev_old_1', 'ev_old_2', 'ev_old_3']) {
        await leaseOf(store, id)
        await store.complete(id)
      }
      await leaseOf(store, 'ev_abandoned', 1) // its holder crashed: it never completed
      await travel(table, 31 * hour)
      await leaseOf(store, 'ev_recent')
      await store.complete('ev_recent')
      await leaseOf(store, 'ev_live')

      expect(await store.prune({ limit: 2 })).toBe(2) // bounded: oldest first
      expect(await store.prune()).toBe(2)
      expect(await store.prune()).toBe(0)
      const left = await db.query(`SELECT event_id FROM ${table} ORDER BY event_id`, [])
      expect(rowsOf(left).map((row) => row.event_id)).toEqual(['ev_live', 'ev_recent'])
      // A forgotten event is claimable again: a redelivery after the retention runs its handlers.
      expect(await store.claim('ev_old_1', 60_000)).toMatchObject({ status: 'claimed' })

      // A new store (a restarted process) prunes on its first claim, with no prune() call.
      await travel(table, 31 * hour)
      const restarted = createSqlDeliveryStore({ query: db.query, table, retainMs: 30 * hour })
      expect(await restarted.claim('ev_next', 60_000)).toMatchObject({ status: 'claimed' })
      const after = await db.query(`SELECT event_id FROM ${table}`, [])
      expect(rowsOf(after).map((row) => row.event_id)).toEqual(['ev_next'])
    })

    it('migrates idempotently, also from several processes at once', async () => {
      const table = freshTable('migrated')
      const stores = Array.from({ length: 4 }, () =>
        createSqlDeliveryStore({ query: db.query, table }),
      )
      await Promise.all(stores.map((store) => store.migrate()))
      await (stores[0] as SqlDeliveryStore).migrate()
      const indexes = await db.query('SELECT indexname FROM pg_indexes WHERE tablename = $1', [
        table,
      ])
      expect(
        rowsOf(indexes)
          .map((row) => row.indexname)
          .sort(),
      ).toEqual([`${table}_by_age`, `${table}_pkey`])
    })

    it('works with a driver that resolves to the rows themselves (postgres.js)', async () => {
      const table = freshTable('rows_only')
      const query = async (text: string, params: (string | number)[]) =>
        rowsOf(await db.query(text, params))
      const store = createSqlDeliveryStore({ query, table })
      await store.migrate()
      const lease = await leaseOf(store, 'ev_1')
      expect(await store.claim('ev_1', 60_000)).toEqual({ status: 'in_flight' })
      await store.release('ev_1', lease)
      await leaseOf(store, 'ev_1')
      await store.complete('ev_1')
      expect(await store.claim('ev_1', 60_000)).toEqual({ status: 'done' })
    })
  })
}

describe('createSqlDeliveryStore options', () => {
  const query = async () => []

  it('refuses a missing query, a table name that is not an identifier, a useless retention', () => {
    // @ts-expect-error the query is required
    expect(configurationRefusal(() => createSqlDeliveryStore({}))).toMatch(
      /`query` must be a function/,
    )
    for (const table of ['events; DROP TABLE orders', '1events', 'a.b.c', '"quoted"', '']) {
      expect(configurationRefusal(() => createSqlDeliveryStore({ query, table }))).toContain(
        `table must be a table name, optionally schema-qualified`,
      )
    }
    expect(
      configurationRefusal(() => createSqlDeliveryStore({ query, table: 'x'.repeat(57) })),
    ).toMatch(/at most 56 characters/)
    for (const retainMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(configurationRefusal(() => createSqlDeliveryStore({ query, retainMs }))).toMatch(
        /retainMs must be a finite number of milliseconds > 0/,
      )
    }
    expect(() => createSqlDeliveryStore({ query, table: 'webhooks.handled_events' })).not.toThrow()
  })

  it('says which result shapes it reads when the query resolves to something else', async () => {
    const store = createSqlDeliveryStore({ query: async () => ({ rowCount: 1 }) as never })
    await expect(store.claim('ev_1', 60_000)).rejects.toThrow(
      /query must resolve to the rows .* or to an object with a rows array/,
    )
  })

  it('names its table in the schema, with the index pruning uses', () => {
    const { schema } = createSqlDeliveryStore({ query, table: 'shop.handled_events' })
    expect(schema).toContain('CREATE TABLE IF NOT EXISTS shop.handled_events (')
    expect(schema).toContain(
      'CREATE INDEX IF NOT EXISTS handled_events_by_age ON shop.handled_events',
    )
    expect(createSqlDeliveryStore({ query }).schema).toContain(
      'CREATE TABLE IF NOT EXISTS chargekit_webhook_events (',
    )
  })
})

function rowsOf(result: readonly object[] | { rows: readonly object[] }) {
  return (Array.isArray(result) ? result : (result as { rows: object[] }).rows) as Array<
    Record<string, unknown>
  >
}
