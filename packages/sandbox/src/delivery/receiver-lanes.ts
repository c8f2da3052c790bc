interface Lane<T> {
  waiting: T[]
  inFlight: number
}

/**
 * Attempts ready to go, one FIFO lane per receiver origin. `take()` serves lanes round-robin and
 * skips a lane at its in-flight cap, so a slow receiver holds at most `perLane` of the engine's
 * slots and its backlog never sits in front of another receiver's attempts.
 */
export class ReceiverLanes<T> {
  readonly #lanes = new Map<string, Lane<T>>()
  /** Origins with waiting attempts, in serving order. */
  readonly #turns: string[] = []
  readonly #perLane: number

  constructor(perLane: number) {
    this.#perLane = perLane
  }

  push(origin: string, item: T): void {
    let lane = this.#lanes.get(origin)
    if (lane === undefined) {
      lane = { waiting: [], inFlight: 0 }
      this.#lanes.set(origin, lane)
    }
    if (lane.waiting.length === 0) this.#turns.push(origin)
    lane.waiting.push(item)
  }

  /** The next attempt to start (counted in flight until `done`), or undefined if none may. */
  take(): T | undefined {
    for (let tries = this.#turns.length; tries > 0; tries--) {
      const origin = this.#turns.shift() as string
      const lane = this.#lanes.get(origin) as Lane<T>
      if (lane.inFlight >= this.#perLane) {
        this.#turns.push(origin)
        continue
      }
      const item = lane.waiting.shift() as T
      lane.inFlight++
      if (lane.waiting.length > 0) this.#turns.push(origin)
      return item
    }
    return undefined
  }

  done(origin: string): void {
    const lane = this.#lanes.get(origin)
    if (lane === undefined) return
    lane.inFlight--
    if (lane.inFlight === 0 && lane.waiting.length === 0) this.#lanes.delete(origin)
  }

  clear(): void {
    this.#lanes.clear()
    this.#turns.length = 0
  }
}
