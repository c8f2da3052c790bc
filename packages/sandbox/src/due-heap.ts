interface Entry<T> {
  dueAt: number
  order: number
  item: T
  /** Position in the heap, kept current by every move so `remove` needs no search. */
  index: number
}

/**
 * Items waiting for a time, in a binary min-heap: the earliest is always at hand, ties keep
 * their insertion order, and any item can be taken out early. An item is in the heap at most
 * once.
 */
export class DueHeap<T> {
  readonly #heap: Entry<T>[] = []
  readonly #entries = new Map<T, Entry<T>>()
  #order = 0

  /** When the earliest item is due, or undefined when the heap is empty. */
  get nextDueAt(): number | undefined {
    return this.#heap[0]?.dueAt
  }

  add(item: T, dueAt: number): void {
    if (this.#entries.has(item)) {
      throw new Error('DueHeap.add: the item is already waiting; remove it first')
    }
    const entry: Entry<T> = { dueAt, order: this.#order++, item, index: this.#heap.length }
    this.#heap.push(entry)
    this.#entries.set(item, entry)
    this.#siftUp(entry.index)
  }

  /** Takes an item out before its time; false when it was not waiting. */
  remove(item: T): boolean {
    const entry = this.#entries.get(item)
    if (entry === undefined) return false
    this.#removeAt(entry.index)
    return true
  }

  /** Takes out and returns the earliest item due at `now` or before, if any. */
  takeDue(now: number): T | undefined {
    const head = this.#heap[0]
    if (head === undefined || head.dueAt > now) return undefined
    this.#removeAt(0)
    return head.item
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
