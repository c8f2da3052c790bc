/**
 * Waits `ms`, or rejects with `onAbort()`'s error as soon as `signal` fires, so a caller's abort
 * also cancels the wait between two attempts. The listener is removed either way.
 */
export function abortableSleep(
  ms: number,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
): Promise<void> {
  return new Promise((resolve, reject) => {
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
