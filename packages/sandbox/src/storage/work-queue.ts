/** JSON data: work may run in another process or after a restart, so it never holds closures. */
export type WorkPayload = { readonly [field: string]: unknown }

/**
 * What kind of timed work an item is: `delivery` (an event's next automatic attempt) or
 * `lifecycle` (an asynchronous processor answer, an acquirer's settlement batch). Each kind has
 * one runner, which claims only its own kind.
 */
export type WorkKind = 'delivery' | 'lifecycle'

export interface NewWork {
  kind: WorkKind
  accountId: string
  payload: WorkPayload
  /** When it may start, in ms since the epoch; a time already past means at once. */
  dueAt: number
}

/**
 * Which waiting work `pullForward` moves: the items of one account whose payload holds each of
 * these fields with exactly this value (`{ receiver: 'https://shop.example' }`).
 */
export interface WorkMatch {
  accountId: string
  payload: Readonly<Record<string, string>>
}

export interface ClaimedWork {
  readonly id: string
  readonly kind: WorkKind
  readonly accountId: string
  readonly payload: WorkPayload
  readonly dueAt: number
  /** Proof of this claim: completing or rescheduling with a lost claim changes nothing. */
  readonly lease: string
}

/**
 * What becomes of a claimed item: finished and removed (`done`), or back in the queue to wait
 * until `dueAt` with a new payload (a retry).
 */
export type WorkOutcome =
  | { readonly work: ClaimedWork; readonly done: true }
  | {
      readonly work: ClaimedWork
      readonly done: false
      readonly dueAt: number
      readonly payload: WorkPayload
    }

/**
 * The sandbox's timed work, durable where the store is: after a restart, pending work resumes
 * on its schedule (late work at once). When several processes share one database, each item is
 * claimed by one of them at a time; a claim not completed within its `leaseMs` (the process
 * died) is claimable again, so work is never lost, and runs twice only after a crash.
 */
export interface WorkQueue {
  add(work: readonly NewWork[]): Promise<void>
  /** Claims up to `limit` items of `kind` due at `now`, earliest first, for `leaseMs`. */
  claim(kind: WorkKind, now: number, limit: number, leaseMs: number): Promise<ClaimedWork[]>
  /** Finished: removes the item. False when the claim was lost (its lease expired). */
  complete(work: ClaimedWork): Promise<boolean>
  /**
   * Puts a claimed item back to wait until `dueAt` with a new payload (a retry). False when the
   * claim was lost.
   */
  reschedule(work: ClaimedWork, dueAt: number, payload: WorkPayload): Promise<boolean>
  /**
   * Stores what became of claimed items, all in one go: what a runner calls with the items that
   * finished since its last call, instead of a round trip each. Answers, per outcome, whether
   * its claim still held (an outcome of a lost claim changes nothing). Optional, as are the
   * other methods below `reschedule`, for stores written before they existed: a runner then
   * completes and reschedules one item at a time.
   */
  finish?(outcomes: readonly WorkOutcome[]): Promise<boolean[]>
  /**
   * Makes waiting items of `kind` that `match` due at `now`: up to `limit` of those neither
   * claimed nor due yet, earliest due first, keeping their order. Answers how many it moved.
   * What a runner does when whatever made them wait is back, such as a receiver that answers
   * again after an outage: its waiting deliveries need not sit out their retry delays. Moved
   * items are claimed in the order they were added.
   */
  pullForward?(kind: WorkKind, match: WorkMatch, now: number, limit: number): Promise<number>
  /**
   * When the earliest item of `kind` that could be claimed becomes due (an expired claim counts
   * at its expiry); undefined when there is none. What one timer per kind waits for.
   */
  nextDueAt(kind: WorkKind): Promise<number | undefined>
  /**
   * Calls `listener` with the kind of the work this process adds, once it is committed (with the
   * transaction that stored it, for a database) and so claimable when due: runners start due
   * work the moment it is stored instead of on their next look. Work other processes add is not
   * announced. Returns the function that stops the calls. Optional: a queue without it is only
   * looked at every `pollMs`.
   */
  onAdded?(listener: (kind: WorkKind) => void): () => void
}

/** The listeners of a queue's `onAdded`, told once per kind of the work that was committed. */
export class AddedWorkListeners {
  readonly #listeners = new Set<(kind: WorkKind) => void>()

  readonly subscribe = (listener: (kind: WorkKind) => void): (() => void) => {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  announce(work: readonly NewWork[]): void {
    if (work.length === 0 || this.#listeners.size === 0) return
    const kinds = new Set(work.map(({ kind }) => kind))
    for (const listener of this.#listeners) for (const kind of kinds) listener(kind)
  }
}
