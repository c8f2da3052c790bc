import { createHook } from 'node:async_hooks'
import { sep } from 'node:path'

const deliveryCode = `${sep}src${sep}delivery${sep}`
const workRunnerCode = `${sep}src${sep}work-runner.ts`

export interface TimerTracker {
  /**
   * Timers created by the delivery engine's code (src/delivery/ and the work runner) since
   * tracking started that neither fired nor were cleared.
   */
  live(): number
  stop(): void
}

/**
 * Watches the timers the delivery engine's own code creates (the work runner's timers, the
 * per-attempt deadlines). `process.getActiveResourcesInfo()` cannot be used for this: it leaves out unref'd
 * timers, and the runner's timers are unref'd. Timers of the receivers or of Node's own sockets are
 * not counted, so a test can ask for exactly zero.
 */
export function trackDeliveryTimers(): TimerTracker {
  const live = new Set<number>()
  const hook = createHook({
    init(asyncId, type) {
      if (type !== 'Timeout') return
      const limit = Error.stackTraceLimit
      Error.stackTraceLimit = 50
      const stack = new Error().stack ?? ''
      Error.stackTraceLimit = limit
      if (stack.includes(deliveryCode) || stack.includes(workRunnerCode)) live.add(asyncId)
    },
    destroy(asyncId) {
      live.delete(asyncId)
    },
  })
  hook.enable()
  return { live: () => live.size, stop: () => hook.disable() }
}
