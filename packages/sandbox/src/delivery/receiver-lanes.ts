interface Lane {
  readonly accountId: string
  inFlight: number
  /** Attempts waiting for a slot, oldest first: told true when they start, false when dropped. */
  readonly waiting: ((started: boolean) => void)[]
}

export interface LaneLimits {
  /** Attempts in flight at once, over all lanes. */
  total: number
  /** Attempts in flight at once for one account, over all its receivers. */
  perAccount: number
  /** Attempts in flight at once to one receiver of one account; also how many may wait for it. */
  perLane: number
}

/**
 * The slots attempts are sent in: one lane per receiver (an account's origin), each with its
 * own waiting line. Slots go round-robin to the lanes that may start (under the global, the
 * account's and the lane's caps), so a receiver that hangs holds only its own lane's slots, and
 * an account whose receivers hang holds only its own share: nothing it does delays another
 * account's deliveries.
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
   * A slot in `lane` for an attempt of `accountId`: resolves true when the attempt may start
   * (at once when a slot is free; it then holds the slot until `leave`) or false when the lanes
   * close first, and answers undefined when the lane's waiting line, or the account's, is full:
   * the attempt should wait elsewhere.
   */
  enter(accountId: string, lane: string): Promise<boolean> | undefined {
    const found = this.#lanes.get(lane) ?? { accountId, inFlight: 0, waiting: [] }
    const account = this.#accounts.get(accountId) ?? { inFlight: 0, waiting: 0 }
    this.#lanes.set(lane, found)
    this.#accounts.set(accountId, account)
    if (found.waiting.length === 0 && this.#mayStart(found)) {
      this.#start(found)
      return Promise.resolve(true)
    }
    if (
      found.waiting.length >= this.#limits.perLane ||
      account.waiting >= this.#limits.perAccount
    ) {
      this.#forget(lane, found)
      return undefined
    }
    return new Promise((resolve) => {
      if (found.waiting.length === 0) this.#turns.push(lane)
      found.waiting.push(resolve)
      account.waiting++
    })
  }

  /** The attempt that entered `lane` has ended: its slot goes to the next lane in turn. */
  leave(lane: string): void {
    const found = this.#lanes.get(lane)
    if (found === undefined) return
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
