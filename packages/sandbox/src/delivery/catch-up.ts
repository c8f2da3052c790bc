import type { SandboxClock } from '../clock'
import type { WorkQueue } from '../storage/work-queue'
import type { ReceiverLanes } from './receiver-lanes'

interface LaneState {
  /** First attempts failed in a row. */
  failures: number
  /** The receiver is taken to be down: its attempts are waiting for it. */
  down: boolean
  /** A pull is under way: answers meanwhile wait for it instead of pulling the same items. */
  pulling: boolean
  /** Attempts pulled forward that have not reached the lane yet: its room is theirs. */
  pulled: number
  /** When the latest pull was made. */
  pulledAt: number
}

/** First attempts failing in a row that make a receiver down, rather than an event it refuses. */
const failuresWhenDown = 2
/**
 * How long a receiver whose slots are all taken must have gone without answering to be down
 * (hanging) rather than busy: a busy one answers every few ms, and its turned-away attempts come
 * back at its pace anyway.
 */
const silenceWhenDownMs = 1_000
/** Lanes remembered; past it, the one that failed longest ago is forgotten. */
const maxLanes = 10_000
/**
 * Pulled attempts are due at once and claimed within moments. Those not here by then went to
 * another process sharing the database, or were done with: they stop holding the lane's room.
 */
const pulledHoldMs = 1_000

/**
 * Catch-up after an outage. While a receiver is down, its attempts wait in the queue: turned away
 * from its full lane, or rescheduled for a retry minutes or hours ahead. Once it answers a 2xx
 * again, those attempts are pulled forward, as many at a time as its lane has room for (free
 * slots and waiting places, less what an earlier pull already sent its way), and later 2xx
 * answers pull more, a lane's worth of slots or more at a time, while some are left: the backlog
 * drains at the pace the receiver answers, within its concurrency, instead of each attempt
 * sitting out its own delay.
 *
 * A receiver is down once attempts to it were turned away while it had not answered anything
 * for a second (it hangs: one that is only busy answers all the time), or once two first
 * attempts in a row failed: one event it refuses is not an outage, and a pulled retry that fails
 * again does not make it one, so such an event is never retried faster than its schedule says,
 * over and over.
 * A retry that succeeds counts as a recovery too: the receiver was down, if not here, then
 * before a restart or in another process sharing the database.
 */
export class CatchUp {
  readonly #queue: WorkQueue
  readonly #lanes: ReceiverLanes
  readonly #clock: SandboxClock
  readonly #onPulled: () => void
  readonly #onError: (error: unknown, accountId: string) => void
  readonly #states = new Map<string, LaneState>()

  constructor(options: {
    queue: WorkQueue
    lanes: ReceiverLanes
    clock: SandboxClock
    /** Attempts were pulled forward: they are due now, for the runner to claim. */
    onPulled(): void
    onError(error: unknown, accountId: string): void
  }) {
    this.#queue = options.queue
    this.#lanes = options.lanes
    this.#clock = options.clock
    this.#onPulled = options.onPulled
    this.#onError = options.onError
  }

  /**
   * An attempt of `lane` was turned away: it waits for the receiver, which is down when it has
   * not answered anything for a while (it hangs), and only busy otherwise.
   */
  turnedAway(lane: string, now: number): void {
    if (this.#lanes.silentFor(lane, now) >= silenceWhenDownMs) this.#state(lane).down = true
  }

  /** An attempt of `lane` failed; a retry's failure says nothing new about the receiver. */
  failed(lane: string, wasRetry: boolean): void {
    if (wasRetry) return
    const state = this.#state(lane)
    if (++state.failures >= failuresWhenDown) state.down = true
  }

  /** An attempt reached `lane` (a slot, its line, or turned away): one pulled forward, maybe. */
  arrived(lane: string): void {
    const state = this.#states.get(lane)
    if (state !== undefined && state.pulled > 0) state.pulled--
  }

  /**
   * An attempt of `lane`, to `receiver` of `accountId`, was answered with a 2xx: when the
   * receiver was down, its waiting attempts are pulled forward.
   */
  answered(lane: string, accountId: string, receiver: string, wasRetry: boolean): void {
    if (this.#queue.pullForward === undefined) return
    if (wasRetry) this.#state(lane).down = true
    const state = this.#states.get(lane)
    if (state === undefined) return
    if (!state.down) {
      // A failure or two, then an answer: no outage.
      this.#states.delete(lane)
      return
    }
    if (state.pulling) return
    const now = this.#clock.now()
    if (now - state.pulledAt > pulledHoldMs) state.pulled = 0
    const room = this.#lanes.room(lane) - state.pulled
    // A room of one after each answer would make a pull per delivery: pulls wait until a lane's
    // worth of slots is free (its waiting line empty), and take as many as there is room for.
    if (room < this.#lanes.pullBatch) return
    state.pulling = true
    this.#queue
      .pullForward('delivery', { accountId, payload: { receiver } }, now, room)
      .then(
        (moved) => {
          state.pulled += moved
          state.pulledAt = now
          if (moved > 0) this.#onPulled()
          // Fewer than there was room for: none is left waiting, the receiver has caught up.
          if (moved < room) this.#states.delete(lane)
        },
        (error: unknown) => this.#onError(error, accountId),
      )
      .finally(() => {
        state.pulling = false
      })
  }

  #state(lane: string): LaneState {
    let state = this.#states.get(lane)
    if (state === undefined) {
      state = { failures: 0, down: false, pulling: false, pulled: 0, pulledAt: 0 }
      this.#states.set(lane, state)
      for (const [oldest] of this.#states) {
        if (this.#states.size <= maxLanes) break
        this.#states.delete(oldest)
      }
    }
    return state
  }
}
