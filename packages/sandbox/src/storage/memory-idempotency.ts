import { randomUUID } from 'node:crypto'
import {
  type IdempotencyRecords,
  type IdempotentAnswer,
  idempotencyTtlMs,
  inFlightLeaseMs,
  type Reservation,
} from './idempotency-records'

interface Entry {
  fingerprint: string
  token: string
  /** undefined while the first request is still running. */
  answer: IdempotentAnswer | undefined
  leaseUntil: number
  expiresAt: number
}

export interface MemoryIdempotencyOptions {
  /** How long a key is remembered. Default 24 h. */
  ttlMs?: number
  /** Keys remembered per account; past it the oldest finished ones are forgotten first. */
  maxKeysPerAccount?: number
}

/** Idempotency records in process memory, bounded per account. */
export function createMemoryIdempotencyRecords({
  ttlMs = idempotencyTtlMs,
  maxKeysPerAccount = 5_000,
}: MemoryIdempotencyOptions = {}): IdempotencyRecords {
  const accounts = new Map<string, Map<string, Entry>>()

  function entriesOf(accountId: string): Map<string, Entry> {
    let entries = accounts.get(accountId)
    if (entries === undefined) {
      entries = new Map()
      accounts.set(accountId, entries)
    }
    return entries
  }

  // Entries are in reservation order, so the oldest come first.
  function evict(entries: Map<string, Entry>, now: number) {
    for (const [key, entry] of entries) {
      if (entries.size <= maxKeysPerAccount && entry.expiresAt > now) break
      if (entry.answer !== undefined || entry.expiresAt <= now) entries.delete(key)
    }
  }

  /** Whether another request holds the key now (one that was only forgotten is not). */
  function takenOver(accountId: string, key: string): boolean {
    return accounts.get(accountId)?.has(key) === true
  }

  function owned(accountId: string, key: string, token: string): Entry | undefined {
    const entry = accounts.get(accountId)?.get(key)
    return entry?.token === token ? entry : undefined
  }

  return {
    async reserve(accountId, key, fingerprint, now): Promise<Reservation> {
      const entries = entriesOf(accountId)
      const existing = entries.get(key)
      if (existing !== undefined && existing.expiresAt > now) {
        if (existing.answer !== undefined) {
          return { state: 'done', fingerprint: existing.fingerprint, answer: existing.answer }
        }
        if (existing.leaseUntil > now)
          return { state: 'running', fingerprint: existing.fingerprint }
      }
      const token = randomUUID()
      entries.delete(key)
      entries.set(key, {
        fingerprint,
        token,
        answer: undefined,
        leaseUntil: now + inFlightLeaseMs,
        expiresAt: now + ttlMs,
      })
      evict(entries, now)
      return { state: 'reserved', token }
    },

    async finish(accountId, key, token, answer) {
      const entry = owned(accountId, key, token)
      if (entry !== undefined) entry.answer = answer
      return entry !== undefined || !takenOver(accountId, key)
    },

    async release(accountId, key, token) {
      if (owned(accountId, key, token) !== undefined) return entriesOf(accountId).delete(key)
      return !takenOver(accountId, key)
    },
  }
}
