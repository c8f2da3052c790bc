import { setTimeout as sleep } from 'node:timers/promises'
import { openStorage, type Storage, type StorageOptions } from './storage/open-storage'

/** The first pause between tries; each pause doubles, up to the longest. */
const firstPauseMs = 250
const longestPauseMs = 2_000

/**
 * Opens the store, trying again for up to `timeoutMs` while it fails: a database container
 * still starting beside the sandbox, or a data folder a stopping sandbox still holds, is there
 * a few seconds later. `onRetry` hears each failure; the last one is thrown. Only a data folder
 * or a database is tried again: a store in memory cannot fail that way.
 */
export async function waitForStorage(
  options: StorageOptions,
  {
    timeoutMs,
    signal,
    onRetry,
  }: {
    timeoutMs: number
    signal?: AbortSignal | undefined
    onRetry(error: unknown, pauseMs: number): void
  },
): Promise<Storage> {
  const retried =
    options.store === undefined && (options.data === undefined) !== (options.database === undefined)
  const deadline = Date.now() + timeoutMs
  for (let pauseMs = firstPauseMs; ; pauseMs = Math.min(pauseMs * 2, longestPauseMs)) {
    signal?.throwIfAborted()
    try {
      return await openStorage(options)
    } catch (error) {
      if (!retried || Date.now() + pauseMs > deadline) throw error
      onRetry(error, pauseMs)
      await sleep(pauseMs, undefined, { signal })
    }
  }
}
