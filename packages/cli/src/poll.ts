import { setTimeout as delay } from 'node:timers/promises'
import { CliError } from './errors'

/** Waits `ms`; an abort ends the wait early without an error, the caller checks the signal. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, signal === undefined ? {} : { signal })
  } catch (error) {
    if (!signal?.aborted) throw error
  }
}

/**
 * Calls `check` until it returns a value, waiting a little longer each time (50 ms growing to
 * 500 ms): quick against a sandbox with a small time scale, gentle on a real service.
 */
export async function pollUntil<T>(
  check: () => Promise<T | undefined>,
  {
    timeoutMs,
    what,
    signal,
  }: { timeoutMs: number; what: string; signal?: AbortSignal | undefined },
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
    const found = await check()
    if (found !== undefined) return found
    if (signal?.aborted) throw new CliError(`stopped while waiting for ${what}`)
    if (Date.now() + wait > deadline) {
      throw new CliError(
        `timed out after ${timeoutMs / 1000} s waiting for ${what} (--timeout sets how long to wait)`,
      )
    }
    await sleep(wait, signal)
  }
}
