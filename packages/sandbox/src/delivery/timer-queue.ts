/** setTimeout fires at once above this; a later head is simply re-armed when the timer fires. */
const maxTimerDelay = 2 ** 31 - 1

interface Entry<T> {
  dueAt: number
  order: number
  item: T
}

/**
 * Items waiting for a time, kept in a binary min-heap with ONE timer for the earliest, so
 * thousands of pending retries cost one timer and `clear()` leaves none behind. Ties keep their
 * insertion order.
 */
export class TimerQueue<T> {
  readonly #heap: Entry<T>[] = []
  readonly #onDue: (item: T) => void
  #timer: NodeJS.Timeout | undefined
  #timerAt = Number.POSITIVE_INFINITY
  #order = 0

  constructor(onDue: (item: T) => void) {
    this.#onDue = onDue
  }

  get size(): number {
    return this.#heap.length
  }

  add(item: T, dueAt: number): void {
    this.#heap.push({ dueAt, order: this.#order++, item })
    this.#siftUp(this.#heap.length - 1)
    this.#arm()
  }

  clear(): void {
    this.#heap.length = 0
    this.#disarm()
  }

  #fire = () => {
    this.#timer = undefined
    this.#timerAt = Number.POSITIVE_INFINITY
    const now = Date.now()
    for (let head = this.#heap[0]; head !== undefined && head.dueAt <= now; head = this.#heap[0]) {
      this.#pop()
      this.#onDue(head.item)
    }
    this.#arm()
  }

  #arm() {
    const head = this.#heap[0]
    if (head === undefined || head.dueAt >= this.#timerAt) return
    this.#disarm()
    this.#timerAt = head.dueAt
    // Unref'd: pending retries alone must not keep a process alive that is otherwise done.
    const wait = Math.min(maxTimerDelay, Math.max(0, head.dueAt - Date.now()))
    this.#timer = setTimeout(this.#fire, wait).unref()
  }

  #disarm() {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    this.#timerAt = Number.POSITIVE_INFINITY
  }

  #pop() {
    const last = this.#heap.pop()
    if (last !== undefined && this.#heap.length > 0) {
      this.#heap[0] = last
      this.#siftDown(0)
    }
  }

  #before(a: number, b: number): boolean {
    const x = this.#heap[a] as Entry<T>
    const y = this.#heap[b] as Entry<T>
    return x.dueAt < y.dueAt || (x.dueAt === y.dueAt && x.order < y.order)
  }

  #swap(a: number, b: number) {
    const x = this.#heap[a] as Entry<T>
    this.#heap[a] = this.#heap[b] as Entry<T>
    this.#heap[b] = x
  }

  #siftUp(index: number) {
    for (let i = index; i > 0; ) {
      const parent = (i - 1) >> 1
      if (!this.#before(i, parent)) return
      this.#swap(i, parent)
      i = parent
    }
  }

  #siftDown(index: number) {
    const length = this.#heap.length
    for (let i = index; ; ) {
      const left = 2 * i + 1
      const right = left + 1
      let smallest = i
      if (left < length && this.#before(left, smallest)) smallest = left
      if (right < length && this.#before(right, smallest)) smallest = right
      if (smallest === i) return
      this.#swap(i, smallest)
      i = smallest
    }
  }
}
