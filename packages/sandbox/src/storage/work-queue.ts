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
  /**
   * Work added with a key starts only after every earlier work of the same key (added before
   * it) has completed or been rescheduled: a charge's events reach their receiver in creation
   * order, but a failing one does not hold back the next.
   */
  orderKey?: string
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
   * Puts a claimed item back to wait until `dueAt` with a new payload (a retry), no longer
   * holding back the later work of its key. False when the claim was lost.
   */
  reschedule(work: ClaimedWork, dueAt: number, payload: WorkPayload): Promise<boolean>
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
