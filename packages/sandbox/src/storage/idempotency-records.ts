import type { IntegrationWarning } from '@chargekit/schemas'

/** A finished API answer, kept so a retry with the same Idempotency-Key gets it again. */
export interface IdempotentAnswer {
  status: number
  body: string
  headers: Readonly<Record<string, string>>
  /** What the operation read leniently in the body, repeated on every replay. */
  warnings: { readonly list: readonly IntegrationWarning[]; readonly omitted: number }
}

/** What a request finds under its (account, key). */
export type Reservation =
  /** Nothing live: the key is now this request's, until it finishes or releases it. */
  | { state: 'reserved'; token: string }
  /** A first request with this key is still running. */
  | { state: 'running'; fingerprint: string }
  | { state: 'done'; fingerprint: string; answer: IdempotentAnswer }

/**
 * Idempotency keys and the answers they replay, per account, as durable as the rest of the
 * store: a retry after a restart, or sent to another sandbox process sharing the database, gets
 * the stored answer. Times are ms since the epoch, given by the caller.
 */
export interface IdempotencyRecords {
  reserve(accountId: string, key: string, fingerprint: string, now: number): Promise<Reservation>
  /** Stores the answer of the reservation `token` (nothing, if the key was taken over since). */
  finish(accountId: string, key: string, token: string, answer: IdempotentAnswer): Promise<void>
  /** Frees the key for a retry to run again (the answer was not one to replay). */
  release(accountId: string, key: string, token: string): Promise<void>
}

/** How long a key replays its answer. */
export const idempotencyTtlMs = 24 * 60 * 60 * 1000

/**
 * How long a running request holds its key. Only a request whose process died runs that long
 * (the API answers within its timeout, and the work behind it finishes soon after); then a retry
 * may run instead of waiting for an answer that never comes.
 */
export const inFlightLeaseMs = 10 * 60 * 1000
