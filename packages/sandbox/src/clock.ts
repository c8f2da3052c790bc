/**
 * Where the sandbox reads the time and waits for it: its timed work (processors' later answers,
 * customers' deadlines, settlement batches), delivery retries and delivery time-outs. The system
 * clock unless `startSandbox` is given another; tests give it a `TestClock` (from
 * `@chargekit/sandbox/testing`) and move time forward themselves instead of waiting for it.
 */
export interface SandboxClock {
  /** The current time in milliseconds since the epoch, as `Date.now()`. */
  now(): number
  /**
   * Calls `wake` once the time is `at` (ms since the epoch) or later, soon after when it already
   * is; the returned function cancels the call. A pending wake-up must not keep the process alive.
   */
  wakeAt(at: number, wake: () => void): () => void
}

/** setTimeout fires at once above this: a later time is reached by waiting again. */
const maxTimerDelay = 2 ** 31 - 1

/** Real time: `Date.now()` and unref'd timers. */
export const systemClock: SandboxClock = {
  now: () => Date.now(),
  wakeAt(at, wake) {
    let timer: NodeJS.Timeout
    const wait = () => {
      timer = setTimeout(
        () => (Date.now() >= at ? wake() : wait()),
        Math.min(maxTimerDelay, Math.max(0, at - Date.now())),
      ).unref()
    }
    wait()
    return () => clearTimeout(timer)
  },
}
