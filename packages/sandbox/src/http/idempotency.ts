import { createHash } from 'node:crypto'
import { conflict } from '../api-problem'
import type { IntegrationWarnings } from './integration-warnings'

/** A finished answer, as stored for replay. */
export interface StoredResult {
  status: number
  body: string
  headers: Readonly<Record<string, string>>
  /** What the operation read leniently in the body, repeated on every replay. */
  warnings: IntegrationWarnings
}

interface Entry {
  /** A digest of the request: the request itself may be up to a megabyte. */
  fingerprint: string
  /** undefined while the first request is still running. */
  result: StoredResult | undefined
  expiresAt: number
}

export interface IdempotencyOptions {
  /** How long a key is remembered (24 h by default). */
  ttlMs: number
  /** Keys remembered per account; past it the oldest finished ones are forgotten first. */
  maxKeysPerAccount: number
}

const defaultIdempotencyOptions: IdempotencyOptions = {
  ttlMs: 24 * 60 * 60 * 1000,
  maxKeysPerAccount: 50_000,
}

export interface IdempotencyCache {
  /**
   * Runs `operation` once per (account, key). `request` is the request as read (only its
   * digest is kept). The same key with the same request replays the stored answer; with
   * another request it is 409 03.04.0000; while the first request
   * is in flight it is 409 02.04.0000 (a temporary issue: retry) with `Retry-After: 1`.
   * Answers ≥ 500 are not stored, so a retry runs again.
   */
  run(
    accountId: string,
    key: string,
    request: string,
    operation: () => Promise<StoredResult>,
  ): Promise<{ result: StoredResult; replayed: boolean }>
}

export function createIdempotencyCache(
  overrides: Partial<IdempotencyOptions> = {},
): IdempotencyCache {
  const options = { ...defaultIdempotencyOptions, ...overrides }
  const accounts = new Map<string, Map<string, Entry>>()

  function entriesOf(accountId: string): Map<string, Entry> {
    let entries = accounts.get(accountId)
    if (entries === undefined) {
      entries = new Map()
      accounts.set(accountId, entries)
    }
    return entries
  }

  function evict(entries: Map<string, Entry>, now: number) {
    for (const [key, entry] of entries) {
      if (entries.size <= options.maxKeysPerAccount && entry.expiresAt > now) break
      if (entry.result !== undefined || entry.expiresAt <= now) entries.delete(key)
    }
  }

  return {
    async run(accountId, key, request, operation) {
      const fingerprint = createHash('sha256').update(request).digest('base64')
      const entries = entriesOf(accountId)
      const now = Date.now()
      const existing = entries.get(key)
      if (existing !== undefined && existing.expiresAt > now) {
        if (existing.fingerprint !== fingerprint) {
          throw conflict(
            '03.04.0000',
            'This Idempotency-Key was already used with a different request: use a new key for a new request',
          )
        }
        if (existing.result === undefined) {
          throw conflict(
            '02.04.0000',
            'A request with this Idempotency-Key is still in progress: retry after the Retry-After delay',
            { 'retry-after': '1' },
          )
        }
        return { result: existing.result, replayed: true }
      }
      const entry: Entry = { fingerprint, result: undefined, expiresAt: now + options.ttlMs }
      entries.delete(key)
      entries.set(key, entry)
      evict(entries, now)
      try {
        const result = await operation()
        if (result.status >= 500) entries.delete(key)
        else entry.result = result
        return { result, replayed: false }
      } catch (error) {
        entries.delete(key)
        throw error
      }
    },
  }
}
