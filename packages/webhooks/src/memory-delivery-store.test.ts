import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
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

describe('createMemoryDeliveryStore', () => {
  it('claims once, reports in_flight while claimed, done once completed', () => {
    const store = createMemoryDeliveryStore()
    expect(store.claim('ev_1', 1_000)).toBe('claimed')
    expect(store.claim('ev_1', 1_000)).toBe('in_flight')
    store.complete('ev_1')
    expect(store.claim('ev_1', 1_000)).toBe('done')
    expect(store.claim('ev_2', 1_000)).toBe('claimed')
  })

  it('makes a released event claimable again, and leaves done events alone on release', () => {
    const store = createMemoryDeliveryStore()
    store.claim('ev_1', 1_000)
    store.release('ev_1')
    expect(store.claim('ev_1', 1_000)).toBe('claimed')
    store.complete('ev_1')
    store.release('ev_1')
    expect(store.claim('ev_1', 1_000)).toBe('done')
  })

  it('frees a claim after its ttl (a crashed or hung holder)', () => {
    const time = clock()
    const store = createMemoryDeliveryStore({ now: time.now })
    expect(store.claim('ev_1', 500)).toBe('claimed')
    time.advance(499)
    expect(store.claim('ev_1', 500)).toBe('in_flight')
    time.advance(1)
    expect(store.claim('ev_1', 500)).toBe('claimed')
  })

  it('stays bounded by forgetting the least recently seen completed event', () => {
    const store = createMemoryDeliveryStore({ maxEntries: 2 })
    for (const id of ['ev_1', 'ev_2']) {
      store.claim(id, 1_000)
      store.complete(id)
    }
    expect(store.claim('ev_1', 1_000)).toBe('done') // ev_1 is now the most recently seen
    expect(store.claim('ev_3', 1_000)).toBe('claimed') // evicts ev_2
    // ev_2 was forgotten, so it is claimable; making room drops ev_1, never ev_3's live claim.
    expect(store.claim('ev_2', 1_000)).toBe('claimed')
    expect(store.claim('ev_3', 1_000)).toBe('in_flight')
    expect(store.claim('ev_1', 1_000)).toBe('in_flight') // full of live claims now
  })

  it('never evicts a live claim: a store full of them answers in_flight', () => {
    const time = clock()
    const store = createMemoryDeliveryStore({ maxEntries: 2, now: time.now })
    expect(store.claim('ev_1', 1_000)).toBe('claimed')
    expect(store.claim('ev_2', 1_000)).toBe('claimed')
    expect(store.claim('ev_3', 1_000)).toBe('in_flight')
    time.advance(1_000) // both claims expired: they may go
    expect(store.claim('ev_3', 1_000)).toBe('claimed')
  })

  it('rejects a useless bound', () => {
    expect(() => createMemoryDeliveryStore({ maxEntries: 0 })).toThrow(/maxEntries/)
    expect(() => createMemoryDeliveryStore({ maxEntries: 1.5 })).toThrow(/maxEntries/)
  })

  it('behaves like an unbounded model while under its bound (property)', () => {
    const operation = fc.record({
      kind: fc.constantFrom('claim', 'complete', 'release', 'wait'),
      id: fc.constantFrom('ev_a', 'ev_b', 'ev_c', 'ev_d'),
      ms: fc.integer({ min: 1, max: 300 }),
    })
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 80 }), (operations) => {
        const time = clock()
        const store = createMemoryDeliveryStore({ maxEntries: 4, now: time.now })
        const model = new Map<string, { done: boolean; expiresAt: number }>()
        for (const { kind, id, ms } of operations) {
          const entry = model.get(id)
          if (kind === 'wait') time.advance(ms)
          else if (kind === 'complete') {
            store.complete(id)
            model.set(id, { done: true, expiresAt: Number.POSITIVE_INFINITY })
          } else if (kind === 'release') {
            store.release(id)
            if (entry && !entry.done) model.delete(id)
          } else {
            const expected = entry?.done
              ? 'done'
              : entry && entry.expiresAt > time.now()
                ? 'in_flight'
                : 'claimed'
            expect(store.claim(id, ms)).toBe(expected)
            if (expected === 'claimed') model.set(id, { done: false, expiresAt: time.now() + ms })
          }
        }
      }),
    )
  })
})
