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
  /**
   * Stores the answer of the reservation `token`. False (nothing stored) when the key was taken
   * over since; a store that cannot tell may answer nothing.
   */
  finish(
    accountId: string,
    key: string,
    token: string,
    answer: IdempotentAnswer,
  ): Promise<boolean | undefined>
  /** Frees the key for a retry to run again (the answer was not one to replay); false as above. */
  release(accountId: string, key: string, token: string): Promise<boolean | undefined>
}

/** How long a key replays its answer. */
export const idempotencyTtlMs = 24 * 60 * 60 * 1000

/**
 * How long a running request holds its key. Only a request whose process hangs runs that long
 * (the API answers within its timeout, and the work behind it finishes soon after); then a retry
 * may run instead of waiting for an answer that never comes. A process that is known to have
 * died frees its keys at once (see `SqlDatabase.claims`).
 */
export const inFlightLeaseMs = 10 * 60 * 1000
