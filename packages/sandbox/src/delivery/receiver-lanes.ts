interface Lane {
  readonly accountId: string
  inFlight: number
  /** Attempts waiting for a slot, oldest first: told true when they start, false when dropped. */
  readonly waiting: ((started: boolean) => void)[]
  /**
   * How often an attempt ends while others are out (the pace the receiver takes them at), a
   * moving average; undefined until measured.
   */
  paceMs: number | undefined
  /** When its latest attempt ended (when it opened, before any did). */
  lastEndedAt: number
  /** When the attempts turned away so far should find room, spaced at the lane's pace. */
  pacedUntil: number
}

export interface LaneLimits {
  /** Attempts in flight at once, over all lanes. */
  total: number
  /** Attempts in flight at once for one account, over all its receivers. */
  perAccount: number
  /** Attempts in flight at once to one receiver of one account; also how many may wait for it. */
  perLane: number
  /** An attempt fails after this long: turned-away attempts come back within a quarter of it. */
  timeoutMs: number
}

/** Weight of the latest measure in a lane's moving average pace. */
const smoothing = 0.1
const minStepMs = 1

/**
 * The slots attempts are sent in: one lane per receiver (an account's origin), each with its
 * own waiting line. Slots go round-robin to the lanes that may start (under the global, the
 * account's and the lane's caps), so a receiver that hangs holds only its own lane's slots, and
 * an account whose receivers hang holds only its own share: nothing it does delays another
 * account's deliveries. An attempt turned away (its lane's slots and line all taken) is told
 * when to come back, at the pace its receiver answers: a backlog for a fast receiver comes back
 * as fast as it can take it, one for a hanging receiver out of the way of other receivers'.
 */
export class ReceiverLanes {
  readonly #limits: LaneLimits
  readonly #lanes = new Map<string, Lane>()
  readonly #accounts = new Map<string, { inFlight: number; waiting: number }>()
  /** Lanes with waiting attempts, in serving order. */
  #turns: string[] = []
  #inFlight = 0

  constructor(limits: LaneLimits) {
    this.#limits = limits
  }

  get inFlight(): number {
    return this.#inFlight
  }

  /**
   * A slot in `lane` for an attempt of `accountId`: `true` when one is free (the attempt then
   * holds it until `leave`), otherwise a place in the lane's waiting line, which resolves true
   * when the attempt may start or false when the lanes close first. When the lane's waiting line,
   * or the account's, is full, answers instead the time (ms since the epoch) the attempt should
   * come back at, having waited elsewhere.
   */
  enter(accountId: string, lane: string, now = Date.now()): true | Promise<boolean> | number {
    const found = this.#lanes.get(lane) ?? {
      accountId,
      inFlight: 0,
      waiting: [],
      paceMs: undefined,
      lastEndedAt: now,
      pacedUntil: 0,
    }
    const account = this.#accounts.get(accountId) ?? { inFlight: 0, waiting: 0 }
    this.#lanes.set(lane, found)
    this.#accounts.set(accountId, account)
    if (found.waiting.length === 0 && this.#mayStart(found)) {
      this.#start(found)
      return true
    }
    if (found.waiting.length >= this.#limits.perLane) return this.#comeBackAt(found, now)
    if (account.waiting >= this.#limits.perAccount) {
      // The account's other receivers are behind, not this one: nothing here measures when.
      this.#forget(lane, found)
      return now + this.#limits.timeoutMs / 4
    }
    return new Promise((resolve) => {
      if (found.waiting.length === 0) this.#turns.push(lane)
      found.waiting.push(resolve)
      account.waiting++
    })
  }

  /** How long `lane` has gone without an attempt ending (since it opened, before any did). */
  silentFor(lane: string, now = Date.now()): number {
    const found = this.#lanes.get(lane)
    return found === undefined ? 0 : now - found.lastEndedAt
  }

  /** A lane's worth of slots: a batch worth claiming for a lane at once. */
  get pullBatch(): number {
    return this.#limits.perLane
  }

  /**
   * How many more attempts `lane` can take now without turning one away: its free slots and the
   * free places in its waiting line.
   */
  room(lane: string): number {
    const found = this.#lanes.get(lane)
    const { perLane } = this.#limits
    return found === undefined ? 2 * perLane : 2 * perLane - found.inFlight - found.waiting.length
  }

  /** The attempt that entered `lane` has ended: its slot goes to the next lane in turn. */
  leave(lane: string, now = Date.now()): void {
    const found = this.#lanes.get(lane)
    if (found === undefined) return
    // While other attempts are still out, the time between two ends measures the receiver's
    // pace; after an idle spell it would only measure the idleness.
    if (found.inFlight > 1 || found.waiting.length > 0) {
      const interval = now - found.lastEndedAt
      found.paceMs =
        found.paceMs === undefined ? interval : found.paceMs + smoothing * (interval - found.paceMs)
    }
    found.lastEndedAt = now
    found.inFlight--
    this.#inFlight--
    const account = this.#accounts.get(found.accountId)
    if (account !== undefined) account.inFlight--
    this.#serve()
    this.#forget(lane, found)
  }

  /** Drops every waiting attempt: the lanes are closing. */
  dropWaiting(): void {
    for (const account of this.#accounts.values()) account.waiting = 0
    for (const [key, lane] of this.#lanes) {
      for (const start of lane.waiting.splice(0)) start(false)
      this.#forget(key, lane)
    }
    this.#turns = []
  }

  /**
   * One more turned-away attempt comes back one step of the lane's pace after the previous one,
   * and at the latest a quarter of the timeout from now. The step is the measured time between
   * two answers, or more when the lane has not answered for longer than that (as if the attempts
   * out took as long as the silence so far): a hanging receiver's backlog steps back further
   * with each turn. Never under a millisecond, so turned-away attempts cannot spin.
   */
  #comeBackAt(lane: Lane, now: number): number {
    const { perLane, timeoutMs } = this.#limits
    const step = Math.max(minStepMs, lane.paceMs ?? 0, (now - lane.lastEndedAt) / perLane)
    lane.pacedUntil = Math.min(Math.max(now, lane.pacedUntil) + step, now + timeoutMs / 4)
    return lane.pacedUntil
  }

  #mayStart(lane: Lane): boolean {
    const account = this.#accounts.get(lane.accountId)
    return (
      this.#inFlight < this.#limits.total &&
      lane.inFlight < this.#limits.perLane &&
      (account?.inFlight ?? 0) < this.#limits.perAccount
    )
  }

  #start(lane: Lane) {
    lane.inFlight++
    this.#inFlight++
    const account = this.#accounts.get(lane.accountId)
    if (account !== undefined) account.inFlight++
  }

  /** Hands free slots out round-robin, skipping lanes whose own or account's cap is reached. */
  #serve() {
    for (let tries = this.#turns.length; tries > 0 && this.#inFlight < this.#limits.total; ) {
      tries--
      const key = this.#turns.shift() as string
      const lane = this.#lanes.get(key) as Lane
      if (!this.#mayStart(lane)) {
        this.#turns.push(key)
        continue
      }
      const start = lane.waiting.shift() as (started: boolean) => void
      const account = this.#accounts.get(lane.accountId)
      if (account !== undefined) account.waiting--
      this.#start(lane)
      start(true)
      if (lane.waiting.length > 0) {
        this.#turns.push(key)
        tries++
      }
    }
  }

  #forget(key: string, lane: Lane) {
    if (lane.inFlight > 0 || lane.waiting.length > 0) return
    this.#lanes.delete(key)
    const account = this.#accounts.get(lane.accountId)
    if (account !== undefined && account.inFlight === 0 && account.waiting === 0) {
      this.#accounts.delete(lane.accountId)
    }
  }
}
