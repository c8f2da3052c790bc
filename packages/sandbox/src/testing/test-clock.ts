import type { SandboxClock } from '../clock'

interface WakeUp {
  at: number
  wake: () => void
  cancelled: boolean
}

/**
 * A clock that stands still until the test moves it: pass it to `startSandbox({ clock })` and
 * `advance` past a retry, a customer's deadline or a delivery time-out instead of waiting for
 * it. Wake-ups that come due run in time order, each soon after the move (never inside it), so
 * the test awaits what they cause the way it awaits any other answer of the sandbox.
 */
export class TestClock implements SandboxClock {
  #now: number
  #wakeUps = new Set<WakeUp>()

  /** Starts at `start` (a Date or ms since the epoch); default the real time now. */
  constructor(start: Date | number = Date.now()) {
    this.#now = typeof start === 'number' ? start : start.getTime()
  }

  now(): number {
    return this.#now
  }

  wakeAt(at: number, wake: () => void): () => void {
    const wakeUp: WakeUp = { at, wake, cancelled: false }
    if (at <= this.#now) run(wakeUp)
    else this.#wakeUps.add(wakeUp)
    return () => {
      wakeUp.cancelled = true
      this.#wakeUps.delete(wakeUp)
    }
  }

  /** Moves the time forward by `ms` and runs every wake-up that comes due, earliest first. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError(`TestClock.advance: ms must be a finite number >= 0; got ${ms}`)
    }
    this.#now += ms
    const due = [...this.#wakeUps].filter(({ at }) => at <= this.#now).sort((a, b) => a.at - b.at)
    for (const wakeUp of due) {
      this.#wakeUps.delete(wakeUp)
      run(wakeUp)
    }
  }

  /**
   * Moves the time to the earliest wake-up and runs it (and any due with it): the next retry or
   * deadline passes without the test knowing when it is. False when nothing waits.
   */
  advanceToNextWakeUp(): boolean {
    const next = this.nextWakeUpAt
    if (next === undefined) return false
    this.advance(next - this.#now)
    return true
  }

  /** When the earliest wake-up is due, or undefined when nothing waits for the clock. */
  get nextWakeUpAt(): number | undefined {
    let earliest: number | undefined
    for (const { at } of this.#wakeUps) if (earliest === undefined || at < earliest) earliest = at
    return earliest
  }
}

/** Runs a wake-up on the next turn of the event loop, unless it is cancelled before. */
function run(wakeUp: WakeUp) {
  setImmediate(() => {
    if (!wakeUp.cancelled) wakeUp.wake()
  })
}
