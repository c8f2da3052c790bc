import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ClaimResult } from './delivery-store'
import { createMemoryDeliveryStore } from './memory-delivery-store'

function clock(start = 1_000) {
  let now = start
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms
    },
  }
}

type Store = ReturnType<typeof createMemoryDeliveryStore>

/** The memory store answers synchronously; this reads a claim's status. */
function claim(store: Store, eventId: string, ttlMs: number): ClaimResult['status'] {
  return (store.claim(eventId, ttlMs) as ClaimResult).status
}

/** Claims an event that must be free, and returns the lease that came with it. */
function leaseOf(store: Store, eventId: string, ttlMs = 1_000): string {
  const result = store.claim(eventId, ttlMs) as ClaimResult
  if (result.status !== 'claimed')
    throw new Error(`expected to claim ${eventId}; got ${result.status}`)
  return result.lease
}

describe('createMemoryDeliveryStore', () => {
  it('claims once, reports in_flight while claimed, done once completed', () => {
    const store = createMemoryDeliveryStore()
    expect(store.claim('ev_1', 1_000)).toEqual({ status: 'claimed', lease: expect.any(String) })
    expect(store.claim('ev_1', 1_000)).toEqual({ status: 'in_flight' })
    store.complete('ev_1')
    expect(store.claim('ev_1', 1_000)).toEqual({ status: 'done' })
    expect(claim(store, 'ev_2', 1_000)).toBe('claimed')
  })

  it('makes a released event claimable again, and leaves done events alone on release', () => {
    const store = createMemoryDeliveryStore()
    const first = leaseOf(store, 'ev_1')
    store.release('ev_1', first)
    const second = leaseOf(store, 'ev_1')
    expect(second).not.toBe(first)
    store.complete('ev_1')
    store.release('ev_1', second)
    expect(claim(store, 'ev_1', 1_000)).toBe('done')
  })

  it('frees a claim after its ttl (a crashed or hung holder)', () => {
    const time = clock()
    const store = createMemoryDeliveryStore({ now: time.now })
    expect(claim(store, 'ev_1', 500)).toBe('claimed')
    time.advance(499)
    expect(claim(store, 'ev_1', 500)).toBe('in_flight')
    time.advance(1)
    expect(claim(store, 'ev_1', 500)).toBe('claimed')
  })

  it('ignores a stale release: claimed, expired, reclaimed, then the first holder releases', () => {
    const time = clock()
    const store = createMemoryDeliveryStore({ now: time.now })
    const stale = leaseOf(store, 'ev_1', 500)
    time.advance(500) // the first holder outlived its claim (a handler past its timeout)
    const current = leaseOf(store, 'ev_1', 500)
    store.release('ev_1', stale) // the first holder's handler failed at last
    expect(claim(store, 'ev_1', 500)).toBe('in_flight') // no third run alongside the second
    store.release('ev_1', current)
    expect(claim(store, 'ev_1', 500)).toBe('claimed')
  })

  it('stays bounded by forgetting the least recently seen completed event', () => {
    const store = createMemoryDeliveryStore({ maxEntries: 2 })
    for (const id of ['ev_1', 'ev_2']) {
      store.claim(id, 1_000)
      store.complete(id)
    }
    expect(claim(store, 'ev_1', 1_000)).toBe('done') // ev_1 is now the most recently seen
    expect(claim(store, 'ev_3', 1_000)).toBe('claimed') // evicts ev_2
    // ev_2 was forgotten, so it is claimable; making room drops ev_1, never ev_3's live claim.
    expect(claim(store, 'ev_2', 1_000)).toBe('claimed')
    expect(claim(store, 'ev_3', 1_000)).toBe('in_flight')
    expect(claim(store, 'ev_1', 1_000)).toBe('in_flight') // full of live claims now
  })

  it('never evicts a live claim: a store full of them answers in_flight', () => {
    const time = clock()
    const store = createMemoryDeliveryStore({ maxEntries: 2, now: time.now })
    expect(claim(store, 'ev_1', 1_000)).toBe('claimed')
    expect(claim(store, 'ev_2', 1_000)).toBe('claimed')
    expect(claim(store, 'ev_3', 1_000)).toBe('in_flight')
    time.advance(1_000) // both claims expired: they may go
    expect(claim(store, 'ev_3', 1_000)).toBe('claimed')
  })

  it('rejects a useless bound', () => {
    expect(() => createMemoryDeliveryStore({ maxEntries: 0 })).toThrow(/maxEntries/)
    expect(() => createMemoryDeliveryStore({ maxEntries: 1.5 })).toThrow(/maxEntries/)
  })

  it('behaves like an unbounded model while under its bound (property)', () => {
    const operation = fc.record({
      kind: fc.constantFrom('claim', 'complete', 'release', 'release-stale', 'wait'),
      id: fc.constantFrom('ev_a', 'ev_b', 'ev_c', 'ev_d'),
      ms: fc.integer({ min: 1, max: 300 }),
    })
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 80, size: 'max' }), (operations) => {
        const time = clock()
        const store = createMemoryDeliveryStore({ maxEntries: 4, now: time.now })
        const model = new Map<string, { done: boolean; expiresAt: number; lease?: string }>()
        // Every lease handed out per event, latest last: a release may come from any holder.
        const leases = new Map<string, string[]>()
        for (const { kind, id, ms } of operations) {
          const entry = model.get(id)
          const handedOut = leases.get(id) ?? []
          if (kind === 'wait') time.advance(ms)
          else if (kind === 'complete') {
            store.complete(id)
            model.set(id, { done: true, expiresAt: Number.POSITIVE_INFINITY })
          } else if (kind === 'release' || kind === 'release-stale') {
            const lease = kind === 'release' ? handedOut.at(-1) : handedOut.at(-2)
            if (lease === undefined) continue
            store.release(id, lease)
            if (entry && !entry.done && entry.lease === lease) model.delete(id)
          } else {
            const expected = entry?.done
              ? 'done'
              : entry && entry.expiresAt > time.now()
                ? 'in_flight'
                : 'claimed'
            const result = store.claim(id, ms) as ClaimResult
            expect(result.status).toBe(expected)
            if (result.status === 'claimed') {
              expect(handedOut).not.toContain(result.lease)
              leases.set(id, [...handedOut, result.lease])
              model.set(id, { done: false, expiresAt: time.now() + ms, lease: result.lease })
            }
          }
        }
      }),
    )
  })
})
