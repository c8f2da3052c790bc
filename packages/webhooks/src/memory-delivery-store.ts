import type { ClaimResult, DeliveryStore } from './delivery-store'
import { WebhooksError } from './errors'

export interface MemoryDeliveryStoreOptions {
  /** How many events to remember (claims and completed ones together). Default 10 000. */
  maxEntries?: number
  /** The clock, in milliseconds; tests inject one to expire claims without waiting. */
  now?: () => number
}

type Entry = { state: 'in_flight'; lease: string; expiresAt: number } | { state: 'done' }

/**
 * The default store: one process's memory, bounded. When full, the least recently seen completed
 * (or expired) entry is forgotten first; a live claim is never evicted, so a full store answers
 * `in_flight` (a retryable 409) rather than risk running one event twice. A forgotten completed
 * event would run again if the service redelivered it, so size `maxEntries` above the number of
 * events that can arrive within the service's retry window (DESIGN §6: about 28 hours).
 */
export function createMemoryDeliveryStore(options: MemoryDeliveryStoreOptions = {}): DeliveryStore {
  const maxEntries = options.maxEntries ?? 10_000
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new WebhooksError(
      'invalid_configuration',
      `maxEntries must be a whole number >= 1; got ${String(maxEntries)}.`,
    )
  }
  const now = options.now ?? Date.now
  // A Map iterates in insertion order; deleting and re-inserting on use keeps it in LRU order.
  const entries = new Map<string, Entry>()
  // Leases only need to differ between claims of one store: a counter does.
  let leases = 0

  const touch = (eventId: string, entry: Entry) => {
    entries.delete(eventId)
    entries.set(eventId, entry)
  }

  const makeRoom = (at: number): boolean => {
    for (const [eventId, entry] of entries) {
      if (entry.state === 'done' || entry.expiresAt <= at) {
        entries.delete(eventId)
        return true
      }
    }
    return false
  }

  return {
    claim(eventId: string, ttlMs: number): ClaimResult {
      const at = now()
      const entry = entries.get(eventId)
      if (entry?.state === 'done') {
        touch(eventId, entry)
        return { status: 'done' }
      }
      if (entry !== undefined && entry.expiresAt > at) return { status: 'in_flight' }
      if (entry === undefined && entries.size >= maxEntries && !makeRoom(at))
        return { status: 'in_flight' }
      const lease = String(++leases)
      touch(eventId, { state: 'in_flight', lease, expiresAt: at + ttlMs })
      return { status: 'claimed', lease }
    },
    complete(eventId: string) {
      // Normally replaces this caller's claim; if that claim expired and was evicted meanwhile,
      // recording the success still matters more than the bound, so make room when possible.
      if (!entries.has(eventId) && entries.size >= maxEntries) makeRoom(now())
      touch(eventId, { state: 'done' })
    },
    release(eventId: string, lease: string) {
      const entry = entries.get(eventId)
      if (entry?.state === 'in_flight' && entry.lease === lease) entries.delete(eventId)
    },
  }
}
