/**
 * Runs the lifecycle's later work (asynchronous processor answers, settlement batches) after a
 * delay scaled by `timeScale`, and cancels all of it on `close()`, so no timer outlives the
 * sandbox.
 */
export interface Scheduler {
  after(delayMs: number, task: () => Promise<void>): void
  close(): Promise<void>
}

export function createScheduler(options: {
  timeScale: number
  onError(error: unknown): void
}): Scheduler {
  const timers = new Set<NodeJS.Timeout>()
  const running = new Set<Promise<void>>()
  let closed = false

  return {
    after(delayMs, task) {
      if (closed) return
      const timer = setTimeout(
        () => {
          timers.delete(timer)
          if (closed) return
          const run = task().catch(options.onError)
          running.add(run)
          void run.then(() => running.delete(run))
        },
        Math.max(0, delayMs * options.timeScale),
      )
      timers.add(timer)
    },
    async close() {
      closed = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      await Promise.all(running)
    },
  }
}
