import type { ClaimResult, DeliveryStore } from './delivery-store'
import { WebhooksError } from './errors'
import { describeDuration, validRetainMs } from './retention'

export interface MemoryDeliveryStoreOptions {
  /**
   * How long a completed event is remembered, in milliseconds. It must cover the service's retry
   * window (about 28 hours), or a late retry of a handled event runs its handlers again.
   * @default 108_000_000 (30 hours)
   */
  retainMs?: number
  /**
   * A memory bound for bursts: the most events held at once (live claims and completed events
   * together). About 140 bytes each. @default 500_000
   */
  maxEntries?: number
  /**
   * Told once if `maxEntries` forces the store to forget a completed event inside `retainMs`.
   * @default console.warn
   */
  onWarning?: (message: string) => void
  /** The clock, in milliseconds; tests inject one to expire entries without waiting. */
  now?: () => number
}

interface Claim {
  lease: string
  expiresAt: number
}

/**
 * The default store: one process's memory. A completed event is remembered for `retainMs`, so
 * the service's retries of it within its retry window are acknowledged without running again;
 * it is forgotten after that, which keeps memory proportional to the event rate, not to uptime.
 * `maxEntries` is a safety net for bursts: when it is reached, expired entries go first, then the
 * oldest completed event (with one warning, since a redelivery of that event would run again).
 * A live claim is never evicted: a store full of them answers `in_flight` (a retryable 409)
 * rather than risk running one event twice.
 *
 * Nothing survives a restart, and other processes see none of it: use `createSqlDeliveryStore`
 * for exactly-once effects across restarts and across several processes.
 */
export function createMemoryDeliveryStore(options: MemoryDeliveryStoreOptions = {}): DeliveryStore {
  const retainMs = validRetainMs('createMemoryDeliveryStore', options.retainMs)
  const maxEntries = options.maxEntries ?? 500_000
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new WebhooksError(
      'invalid_configuration',
      `createMemoryDeliveryStore: maxEntries must be a whole number >= 1; got ${String(maxEntries)}.`,
    )
  }
  const now = options.now ?? Date.now
  const warn = options.onWarning ?? ((message: string) => console.warn(message))

  // Two maps, each in insertion order, which is also expiry order: claims all last the caller's
  // ttl (createWebhooks passes one constant), completed events all last `retainMs`. So expired
  // entries are always at the front and forgetting them never scans the live ones.
  const claims = new Map<string, Claim>()
  /** Completed event id → when it may be forgotten. */
  const completed = new Map<string, number>()
  // Leases only need to differ between claims of one store: a counter does.
  let leases = 0
  let warned = false

  const forgetExpired = (at: number) => {
    for (const [eventId, claim] of claims) {
      if (claim.expiresAt > at) break
      claims.delete(eventId)
    }
    for (const [eventId, forgetAt] of completed) {
      if (forgetAt > at) break
      completed.delete(eventId)
    }
  }

  /** Forgets the oldest completed event, still inside `retainMs`; false when there is none. */
  const forgetOldestCompleted = (at: number): boolean => {
    const oldest = completed.keys().next()
    if (oldest.done) return false
    const completedAgo = at - ((completed.get(oldest.value) as number) - retainMs)
    completed.delete(oldest.value)
    if (!warned) {
      warned = true
      warn(
        `@chargekit/webhooks: the memory delivery store reached maxEntries (${maxEntries}) and forgot event "${oldest.value}", completed ${describeDuration(completedAgo)} ago, before its retention (retainMs, ${describeDuration(retainMs)}) ran out; if the service redelivers it, its handlers run again. Raise maxEntries, or use createSqlDeliveryStore, which keeps handled events in your database. (Told once per store.)`,
      )
    }
    return true
  }

  const isFull = () => claims.size + completed.size >= maxEntries

  return {
    claim(eventId: string, ttlMs: number): ClaimResult {
      const at = now()
      forgetExpired(at)
      if (completed.has(eventId)) return { status: 'done' }
      const current = claims.get(eventId)
      if (current !== undefined && current.expiresAt > at) return { status: 'in_flight' }
      // An expired claim (its holder crashed or hung) is taken over, under a new lease.
      claims.delete(eventId)
      if (isFull() && !forgetOldestCompleted(at)) return { status: 'in_flight' }
      const lease = String(++leases)
      claims.set(eventId, { lease, expiresAt: at + ttlMs })
      return { status: 'claimed', lease }
    },
    complete(eventId: string) {
      const at = now()
      forgetExpired(at)
      // Normally replaces this caller's claim. If that claim expired and was forgotten meanwhile,
      // recording the success still matters more than the bound.
      claims.delete(eventId)
      completed.delete(eventId)
      if (isFull()) forgetOldestCompleted(at)
      completed.set(eventId, at + retainMs)
    },
    release(eventId: string, lease: string) {
      if (claims.get(eventId)?.lease === lease) claims.delete(eventId)
    },
  }
}
