import { createHash } from 'node:crypto'
import type { IdempotentAnswer } from '../storage/idempotency-records'
import type { SandboxStore } from '../storage/sandbox-store'
import { conflict } from './api-problem'

/** A finished answer, as stored for replay. */
export type StoredResult = IdempotentAnswer

export interface IdempotencyCache {
  /**
   * Runs `operation` once per (account, key). `request` is the request as read (only its digest
   * is kept: it may be up to a megabyte). The same key with the same request replays the stored
   * answer; with another request it is 409 03.04.0000; while the first request
   * is in flight (in this process or another sharing the store) it is 409 02.04.0000 (a
   * temporary issue: retry) with `Retry-After: 1`. Answers ≥ 500 are not stored, so a retry
   * runs again. The operation's writes and its answer are stored together where the store can
   * (`SandboxStore.atomicRequest`), so a process dying mid-way never makes a retry run it twice.
   */
  run(
    accountId: string,
    key: string,
    request: string,
    operation: () => Promise<StoredResult>,
  ): Promise<{ result: StoredResult; replayed: boolean }>
}

const inProgress = () =>
  conflict(
    '02.04.0000',
    'A request with this Idempotency-Key is still in progress: retry after the Retry-After delay',
    { 'retry-after': '1' },
  )

/** The Idempotency-Key protocol over the store's records. */
export function createIdempotencyCache(
  store: Pick<SandboxStore, 'idempotency' | 'atomicRequest'>,
): IdempotencyCache {
  const records = store.idempotency
  const atomicRequest: NonNullable<SandboxStore['atomicRequest']> =
    store.atomicRequest ??
    (async (task, finish) => {
      const result = await task()
      return { result, kept: await finish(result) }
    })
  return {
    async run(accountId, key, request, operation) {
      const fingerprint = createHash('sha256').update(request).digest('base64')
      const found = await records.reserve(accountId, key, fingerprint, Date.now())
      if (found.state !== 'reserved') {
        if (found.fingerprint !== fingerprint) {
          throw conflict(
            '03.04.0000',
            'This Idempotency-Key was already used with a different request: use a new key for a new request',
          )
        }
        if (found.state === 'running') throw inProgress()
        return { result: found.answer, replayed: true }
      }
      let outcome: { result: StoredResult; kept: boolean }
      try {
        outcome = await atomicRequest(operation, async (result) => {
          const stored =
            result.status >= 500
              ? await records.release(accountId, key, found.token)
              : await records.finish(accountId, key, found.token, result)
          return stored !== false
        })
      } catch (error) {
        await records.release(accountId, key, found.token)
        throw error
      }
      // The key was taken over (its lease ran out): the other run's answer is the one kept.
      if (!outcome.kept) throw inProgress()
      return { result: outcome.result, replayed: false }
    },
  }
}
