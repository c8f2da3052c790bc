/** setTimeout fires at once above this; a later head is simply re-armed when the timer fires. */
const maxTimerDelay = 2 ** 31 - 1

interface Entry<T> {
  dueAt: number
  order: number
  item: T
  /** Position in the heap, kept current by every move so `remove` needs no search. */
  index: number
}

/**
 * Items waiting for a time, kept in a binary min-heap with ONE timer for the earliest, so
 * thousands of pending retries cost one timer and `clear()` leaves none behind. Ties keep their
 * insertion order. An item is in the queue at most once.
 */
export class TimerQueue<T> {
  readonly #heap: Entry<T>[] = []
  readonly #entries = new Map<T, Entry<T>>()
  readonly #onDue: (item: T) => void
  #timer: NodeJS.Timeout | undefined
  #timerAt = Number.POSITIVE_INFINITY
  #order = 0

  constructor(onDue: (item: T) => void) {
    this.#onDue = onDue
  }

  add(item: T, dueAt: number): void {
    if (this.#entries.has(item)) {
      throw new Error('TimerQueue.add: the item is already waiting; remove it first')
    }
    const entry: Entry<T> = { dueAt, order: this.#order++, item, index: this.#heap.length }
    this.#heap.push(entry)
    this.#entries.set(item, entry)
    this.#siftUp(entry.index)
    this.#arm()
  }

  /** Takes a waiting item out before its time, so it neither fires nor holds memory until then. */
  remove(item: T): void {
    const entry = this.#entries.get(item)
    if (entry === undefined) return
    const wasHead = entry.index === 0
    this.#removeAt(entry.index)
    // The timer was set for the removed head; the next one may be due much later, or not at all.
    if (wasHead) {
      this.#disarm()
      this.#arm()
    }
  }

  clear(): void {
    this.#heap.length = 0
    this.#entries.clear()
    this.#disarm()
  }

  #fire = () => {
    this.#timer = undefined
    this.#timerAt = Number.POSITIVE_INFINITY
    const now = Date.now()
    for (let head = this.#heap[0]; head !== undefined && head.dueAt <= now; head = this.#heap[0]) {
      this.#removeAt(0)
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

  /** Moves the last entry into the gap and restores the heap order around it. */
  #removeAt(index: number) {
    const removed = this.#heap[index] as Entry<T>
    this.#entries.delete(removed.item)
    const last = this.#heap.pop() as Entry<T>
    if (last === removed) return
    this.#place(last, index)
    this.#siftDown(index)
    this.#siftUp(last.index)
  }

  #place(entry: Entry<T>, index: number) {
    this.#heap[index] = entry
    entry.index = index
  }

  #before(a: number, b: number): boolean {
    const x = this.#heap[a] as Entry<T>
    const y = this.#heap[b] as Entry<T>
    return x.dueAt < y.dueAt || (x.dueAt === y.dueAt && x.order < y.order)
  }

  #swap(a: number, b: number) {
    const x = this.#heap[a] as Entry<T>
    this.#place(this.#heap[b] as Entry<T>, a)
    this.#place(x, b)
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
