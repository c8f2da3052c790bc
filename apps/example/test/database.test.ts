import type { DeliveryStore } from '@chargekit/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/database.js'
import { openDatabase } from '../src/db/open-database.js'
import { migrate } from '../src/db/schema.js'
import { orderRepository } from '../src/orders/order-repository.js'
import { createSqlDeliveryStore } from '../src/webhooks/sql-delivery-store.js'
import { type LocalPostgres, startLocalPostgres } from './support/local-postgres.js'

// The same repository and delivery-store SQL, run on both drivers: embedded PGlite and a real
// PostgreSQL server through node-postgres (skipped only where no PostgreSQL can be started).
const postgres: LocalPostgres | undefined = await startLocalPostgres().catch(() => undefined)

const drivers = [
  { name: 'PGlite', open: () => openDatabase({}) },
  { name: 'PostgreSQL', open: () => openDatabase({ databaseUrl: postgres?.url }), skip: !postgres },
]

afterAll(async () => {
  await postgres?.stop()
})

describe.each(drivers)('$name', ({ open, skip }) => {
  let db: Database
  beforeAll(async () => {
    if (skip) return
    db = await open()
    await db.query('TRUNCATE scenario_runs, order_events, processed_events, orders')
  }, 60_000)
  afterAll(async () => {
    await db?.close()
  })

  it.skipIf(skip)('migrates idempotently', async () => {
    await migrate(db)
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
    )
    expect(tables.map((row) => row.table_name)).toEqual([
      'order_events',
      'orders',
      'processed_events',
      'scenario_runs',
    ])
  })

  it.skipIf(skip)('keeps amounts exact beyond 2^53 minor units', async () => {
    const amountMinor = 9_007_199_254_740_993n
    const order = await orderRepository.create(db, {
      productId: 'p',
      description: 'big',
      amountMinor,
      currency: 'USD',
      flow: 'pay',
    })
    const loaded = await orderRepository.get(db, order.id)
    expect(loaded?.amountMinor).toBe(amountMinor)
    expect(loaded?.status).toBe('awaiting_payment')
    expect(loaded?.createdAt).toBeInstanceOf(Date)
  })

  it.skipIf(skip)('rolls a failed transaction back whole', async () => {
    const order = await orderRepository.create(db, {
      productId: 'p',
      description: 'tx',
      amountMinor: 100n,
      currency: 'USD',
      flow: 'pay',
    })
    const store = createSqlDeliveryStore(db)
    await expect(
      db.transaction(async (tx) => {
        const locked = await orderRepository.getForUpdate(tx, order.id)
        if (!locked) throw new Error('missing')
        await orderRepository.applyChange(tx, locked, { status: 'paid' })
        await store.completeIn(tx, 'ev_rollback')
        throw new Error('crash before commit')
      }),
    ).rejects.toThrow('crash before commit')
    expect((await orderRepository.get(db, order.id))?.status).toBe('awaiting_payment')
    expect(await store.claim('ev_rollback', 60_000)).toEqual({
      status: 'claimed',
      lease: expect.any(String),
    })
  })

  it.skipIf(skip)('delivery store: claim, in flight, done, release', async () => {
    const store = createSqlDeliveryStore(db)
    const first = await leaseOf(store, 'ev_a')
    expect(await store.claim('ev_a', 60_000)).toEqual({ status: 'in_flight' })
    await store.release('ev_a', first)
    const second = await leaseOf(store, 'ev_a')
    expect(second).not.toBe(first)
    await store.complete('ev_a')
    expect(await store.claim('ev_a', 60_000)).toEqual({ status: 'done' })
    // release never undoes a completed event
    await store.release('ev_a', second)
    expect(await store.claim('ev_a', 60_000)).toEqual({ status: 'done' })
  })

  it.skipIf(skip)('delivery store: an expired lease can be claimed again', async () => {
    const store = createSqlDeliveryStore(db)
    await leaseOf(store, 'ev_lease', 1)
    await expireLease('ev_lease')
    await leaseOf(store, 'ev_lease')
    expect(await store.claim('ev_lease', 60_000)).toEqual({ status: 'in_flight' })
  })

  it.skipIf(skip)('delivery store: a stale release leaves the claim that took over', async () => {
    const store = createSqlDeliveryStore(db)
    const stale = await leaseOf(store, 'ev_stale')
    await expireLease('ev_stale') // the first holder outlived its lease (a hung handler)
    const current = await leaseOf(store, 'ev_stale')
    await store.release('ev_stale', stale) // the first holder fails at last and releases
    expect(await store.claim('ev_stale', 60_000)).toEqual({ status: 'in_flight' })
    await store.release('ev_stale', current)
    expect(await store.claim('ev_stale', 60_000)).toMatchObject({ status: 'claimed' })
  })

  it.skipIf(skip)('delivery store: concurrent claims of one event give one owner', async () => {
    const store = createSqlDeliveryStore(db)
    const results = await Promise.all(
      Array.from({ length: 12 }, () => store.claim('ev_race', 60_000)),
    )
    expect(results.filter((result) => result.status === 'claimed')).toHaveLength(1)
    expect(results.filter((result) => result.status === 'in_flight')).toHaveLength(11)
  })

  /** Claims an event that must be free, and returns the lease that came with it. */
  async function leaseOf(store: DeliveryStore, eventId: string, ttlMs = 60_000) {
    const claim = await store.claim(eventId, ttlMs)
    if (claim.status !== 'claimed') throw new Error(`expected to claim ${eventId}: ${claim.status}`)
    return claim.lease
  }

  /** Moves a claim's lease into the past, as if its holder had hung beyond it. */
  async function expireLease(eventId: string) {
    await db.query(
      `UPDATE processed_events SET lease_until = now() - interval '1 second' WHERE event_id = $1`,
      [eventId],
    )
  }
})
