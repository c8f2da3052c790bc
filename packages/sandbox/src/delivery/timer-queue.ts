import { DueHeap } from '../due-heap'

/** setTimeout fires at once above this; a later head is simply re-armed when the timer fires. */
const maxTimerDelay = 2 ** 31 - 1

/**
 * Items waiting for a time, with ONE timer for the earliest, so thousands of pending retries
 * cost one timer and `clear()` leaves none behind. Ties keep their insertion order. An item is
 * in the queue at most once.
 */
export class TimerQueue<T> {
  readonly #waiting = new DueHeap<T>()
  readonly #onDue: (item: T) => void
  #timer: NodeJS.Timeout | undefined
  #timerAt = Number.POSITIVE_INFINITY

  constructor(onDue: (item: T) => void) {
    this.#onDue = onDue
  }

  add(item: T, dueAt: number): void {
    if (this.#waiting.has(item)) {
      throw new Error('TimerQueue.add: the item is already waiting; remove it first')
    }
    this.#waiting.add(item, dueAt)
    this.#arm()
  }

  /** Takes a waiting item out before its time, so it neither fires nor holds memory until then. */
  remove(item: T): void {
    const wasHead = this.#waiting.nextDueAt === this.#timerAt
    if (!this.#waiting.remove(item)) return
    // The timer may have been set for the removed head; the next one may be due much later.
    if (wasHead) {
      this.#disarm()
      this.#arm()
    }
  }

  clear(): void {
    this.#waiting.clear()
    this.#disarm()
  }

  #fire = () => {
    this.#timer = undefined
    this.#timerAt = Number.POSITIVE_INFINITY
    const now = Date.now()
    for (
      let item = this.#waiting.takeDue(now);
      item !== undefined;
      item = this.#waiting.takeDue(now)
    ) {
      this.#onDue(item)
    }
    this.#arm()
  }

  #arm() {
    const dueAt = this.#waiting.nextDueAt
    if (dueAt === undefined || dueAt >= this.#timerAt) return
    this.#disarm()
    this.#timerAt = dueAt
    // Unref'd: pending retries alone must not keep a process alive that is otherwise done.
    const wait = Math.min(maxTimerDelay, Math.max(0, dueAt - Date.now()))
    this.#timer = setTimeout(this.#fire, wait).unref()
  }

  #disarm() {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    this.#timerAt = Number.POSITIVE_INFINITY
  }
}
