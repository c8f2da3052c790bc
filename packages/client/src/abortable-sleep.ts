/**
 * Waits `ms`, or rejects with `onAbort()`'s error as soon as `signal` fires, so a caller's abort
 * also cancels the wait between two attempts. A signal that fired before the wait began rejects
 * at once (an `abort` listener added then would never run). The listener is removed either way.
 */
export function abortableSleep(
  ms: number,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(onAbort())
      return
    }
    const aborted = () => {
      clearTimeout(timer)
      reject(onAbort())
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted)
      resolve()
    }, ms)
    signal?.addEventListener('abort', aborted, { once: true })
  })
}
