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

  /**
   * Up to `count` waiting items that `accept` takes, earliest due first (ties in the order they
   * were added), left where they are. No item under an entry is due before it, so once `count`
   * items are found, a subtree whose root comes after the last of them is skipped whole: the walk
   * looks at the items due up to about the last one it keeps, not at every item.
   */
  earliest(count: number, accept: (item: T) => boolean): T[] {
    const found: Entry<T>[] = []
    const unvisited = count > 0 && this.#heap.length > 0 ? [0] : []
    for (let index = unvisited.pop(); index !== undefined; index = unvisited.pop()) {
      const entry = this.#heap[index] as Entry<T>
      const last = found[count - 1]
      if (last !== undefined && !precedes(entry, last)) continue
      if (accept(entry.item)) {
        let at = found.length
        while (at > 0 && precedes(entry, found[at - 1] as Entry<T>)) at--
        found.splice(at, 0, entry)
        if (found.length > count) found.pop()
      }
      // The left child is pushed last, so it is looked at first.
      const left = 2 * index + 1
      if (left + 1 < this.#heap.length) unvisited.push(left + 1)
      if (left < this.#heap.length) unvisited.push(left)
    }
    return found.map(({ item }) => item)
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
    return precedes(this.#heap[a] as Entry<T>, this.#heap[b] as Entry<T>)
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

/** Due earlier, or at the same time and added earlier. */
function precedes<T>(x: Entry<T>, y: Entry<T>): boolean {
  return x.dueAt < y.dueAt || (x.dueAt === y.dueAt && x.order < y.order)
}
