import type { ClaimResult, DeliveryStore } from '@chargekit/webhooks'
import { describe, expect, it } from 'vitest'

/** A fresh, empty store, and a way to move its time past every live claim's expiry. */
export interface StoreUnderTest {
  store: DeliveryStore
  /** As if every claim's holder had hung for longer than its ttl. */
  expireClaims(): void | Promise<void>
}

const TTL_MS = 60_000

/**
 * What every `DeliveryStore` must do for createWebhooks to give exactly-once effects; run
 * against the memory store, PGlite and a PostgreSQL server alike.
 */
export function describeDeliveryStoreContract(
  name: string,
  open: () => Promise<StoreUnderTest> | StoreUnderTest,
  options: { skip?: boolean } = {},
) {
  describe.skipIf(options.skip ?? false)(`${name}: the DeliveryStore contract`, () => {
    it('claims once, answers in_flight while claimed and done once completed, per event', async () => {
      const { store } = await open()
      expect(await store.claim('ev_1', TTL_MS)).toEqual({
        status: 'claimed',
        lease: expect.any(String),
      })
      expect(await store.claim('ev_1', TTL_MS)).toEqual({ status: 'in_flight' })
      expect(await store.claim('ev_2', TTL_MS)).toMatchObject({ status: 'claimed' })
      await store.complete('ev_1')
      expect(await store.claim('ev_1', TTL_MS)).toEqual({ status: 'done' })
      expect(await store.claim('ev_2', TTL_MS)).toEqual({ status: 'in_flight' })
    })

    it('frees a released claim under a new lease; a release never undoes a completion', async () => {
      const { store } = await open()
      const first = await leaseOf(store, 'ev_1')
      await store.release('ev_1', first)
      const second = await leaseOf(store, 'ev_1')
      expect(second).not.toBe(first)
      await store.complete('ev_1')
      await store.release('ev_1', second)
      expect(await store.claim('ev_1', TTL_MS)).toEqual({ status: 'done' })
    })

    it('lets another delivery take over an expired claim (a crashed or hung holder)', async () => {
      const under = await open()
      const first = await leaseOf(under.store, 'ev_1')
      await under.expireClaims()
      const second = await leaseOf(under.store, 'ev_1')
      expect(second).not.toBe(first)
      expect(await under.store.claim('ev_1', TTL_MS)).toEqual({ status: 'in_flight' })
    })

    it('ignores a stale release: the claim that took over stays until its own release', async () => {
      const under = await open()
      const stale = await leaseOf(under.store, 'ev_1')
      await under.expireClaims() // the first holder outlived its claim
      const current = await leaseOf(under.store, 'ev_1')
      await under.store.release('ev_1', stale) // ...and its handler failed at last
      expect(await under.store.claim('ev_1', TTL_MS)).toEqual({ status: 'in_flight' })
      await under.store.release('ev_1', current)
      expect(await under.store.claim('ev_1', TTL_MS)).toMatchObject({ status: 'claimed' })
    })

    it('records a completion made after the claim expired and was taken over', async () => {
      const under = await open()
      await leaseOf(under.store, 'ev_1')
      await under.expireClaims()
      const current = await leaseOf(under.store, 'ev_1')
      await under.store.complete('ev_1') // the first holder's handlers succeeded after all
      await under.store.release('ev_1', current) // the second's failed: the event stays done
      expect(await under.store.claim('ev_1', TTL_MS)).toEqual({ status: 'done' })
      // A completion with no claim on record at all (forgotten, or never made) counts too.
      await under.store.complete('ev_2')
      expect(await under.store.claim('ev_2', TTL_MS)).toEqual({ status: 'done' })
    })

    it('gives one owner to many concurrent claims of one event, fresh or expired', async () => {
      const under = await open()
      const race = () => Promise.all(Array.from({ length: 16 }, () => claim(under.store, 'ev_1')))
      const fresh = await race()
      expect(fresh.filter((status) => status === 'claimed')).toHaveLength(1)
      expect(fresh.filter((status) => status === 'in_flight')).toHaveLength(15)
      await under.expireClaims()
      const takeOver = await race()
      expect(takeOver.filter((status) => status === 'claimed')).toHaveLength(1)
      expect(takeOver.filter((status) => status === 'in_flight')).toHaveLength(15)
      await under.store.complete('ev_1')
      expect(await race()).toEqual(Array.from({ length: 16 }, () => 'done'))
    })
  })
}

async function claim(store: DeliveryStore, eventId: string): Promise<ClaimResult['status']> {
  return (await store.claim(eventId, TTL_MS)).status
}

/** Claims an event that must be free, and returns the lease that came with it. */
export async function leaseOf(store: DeliveryStore, eventId: string, ttlMs = TTL_MS) {
  const result = await store.claim(eventId, ttlMs)
  if (result.status !== 'claimed') throw new Error(`expected to claim ${eventId}: ${result.status}`)
  return result.lease
}
