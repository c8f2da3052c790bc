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
  it('frees a claim after its ttl (a crashed or hung holder)', () => {
    const time = clock()
    const store = createMemoryDeliveryStore({ now: time.now })
    expect(claim(store, 'ev_1', 500)).toBe('claimed')
    time.advance(499)
    expect(claim(store, 'ev_1', 500)).toBe('in_flight')
    time.advance(1)
    expect(claim(store, 'ev_1', 500)).toBe('claimed')
  })

  it('remembers a completed event for retainMs, then forgets it', () => {
    const time = clock()
    const store = createMemoryDeliveryStore({ retainMs: 10_000, now: time.now })
    leaseOf(store, 'ev_1')
    store.complete('ev_1')
    time.advance(9_999)
    expect(claim(store, 'ev_1', 1_000)).toBe('done')
    time.advance(1)
    // Past the retention, a redelivery is a new event to this store: its handlers would run.
    expect(claim(store, 'ev_1', 1_000)).toBe('claimed')
  })

  it('remembers completed events for 30 hours by default', () => {
    const time = clock()
    const store = createMemoryDeliveryStore({ now: time.now })
    leaseOf(store, 'ev_1')
    store.complete('ev_1')
    time.advance(30 * 3_600_000 - 1) // the service retries for about 28 hours
    expect(claim(store, 'ev_1', 1_000)).toBe('done')
    time.advance(1)
    expect(claim(store, 'ev_1', 1_000)).toBe('claimed')
  })

  it('at its bound, drops expired entries first, without a warning', () => {
    const time = clock()
    const warnings: string[] = []
    const store = createMemoryDeliveryStore({
      maxEntries: 2,
      retainMs: 10_000,
      now: time.now,
      onWarning: (message) => warnings.push(message),
    })
    leaseOf(store, 'ev_done')
    store.complete('ev_done')
    time.advance(5_000)
    leaseOf(store, 'ev_recent')
    store.complete('ev_recent')
    time.advance(5_000) // ev_done's retention is over; ev_recent's is not
    expect(claim(store, 'ev_new', 1_000)).toBe('claimed')
    expect(claim(store, 'ev_recent', 1_000)).toBe('done')
    expect(warnings).toEqual([])
  })

  it('forgets the oldest completed event when the bound leaves no choice, and says so once', () => {
    const time = clock()
    const warnings: string[] = []
    const store = createMemoryDeliveryStore({
      maxEntries: 2,
      now: time.now,
      onWarning: (message) => warnings.push(message),
    })
    for (const id of ['ev_1', 'ev_2']) {
      leaseOf(store, id)
      store.complete(id)
      time.advance(60_000)
    }
    expect(claim(store, 'ev_1', 1_000)).toBe('done') // a duplicate does not make it younger
    expect(claim(store, 'ev_3', 1_000)).toBe('claimed') // forgets ev_1, the oldest
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('maxEntries (2)')
    expect(warnings[0]).toContain('forgot event "ev_1", completed 2 min ago')
    expect(warnings[0]).toContain('createSqlDeliveryStore')
    expect(claim(store, 'ev_1', 1_000)).toBe('claimed') // forgets ev_2: no second warning
    expect(claim(store, 'ev_2', 1_000)).toBe('in_flight') // full of live claims now
    expect(warnings).toHaveLength(1)
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

  it('rejects a useless bound or retention, naming the option', () => {
    expect(() => createMemoryDeliveryStore({ maxEntries: 0 })).toThrow(
      'maxEntries must be a whole number >= 1; got 0',
    )
    expect(() => createMemoryDeliveryStore({ maxEntries: 1.5 })).toThrow(/maxEntries/)
    expect(() => createMemoryDeliveryStore({ retainMs: 0 })).toThrow(
      /retainMs must be a finite number of milliseconds > 0.*got 0/,
    )
    expect(() => createMemoryDeliveryStore({ retainMs: Number.NaN })).toThrow(/retainMs/)
  })

  it('behaves like a model of claims and retention while under its bound (property)', () => {
    const operation = fc.record({
      kind: fc.constantFrom('claim', 'complete', 'release', 'release-stale', 'wait'),
      id: fc.constantFrom('ev_a', 'ev_b', 'ev_c', 'ev_d'),
      ms: fc.integer({ min: 1, max: 300 }),
    })
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 80, size: 'max' }), (operations) => {
        const time = clock()
        const store = createMemoryDeliveryStore({ maxEntries: 4, retainMs: 1_000, now: time.now })
        // A completed event "expires" when its retention ends, a claim when its ttl does.
        const model = new Map<string, { done: boolean; expiresAt: number; lease?: string }>()
        // Every lease handed out per event, latest last: a release may come from any holder.
        const leases = new Map<string, string[]>()
        for (const { kind, id, ms } of operations) {
          const stored = model.get(id)
          const entry = stored && stored.expiresAt > time.now() ? stored : undefined
          const handedOut = leases.get(id) ?? []
          if (kind === 'wait') time.advance(ms)
          else if (kind === 'complete') {
            store.complete(id)
            model.set(id, { done: true, expiresAt: time.now() + 1_000 })
          } else if (kind === 'release' || kind === 'release-stale') {
            const lease = kind === 'release' ? handedOut.at(-1) : handedOut.at(-2)
            if (lease === undefined) continue
            store.release(id, lease)
            if (entry && !entry.done && entry.lease === lease) model.delete(id)
          } else {
            const expected = entry === undefined ? 'claimed' : entry.done ? 'done' : 'in_flight'
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
