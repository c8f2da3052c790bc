import { type SandboxClock, systemClock } from './clock'
import type {
  ClaimedWork,
  WorkKind,
  WorkOutcome,
  WorkPayload,
  WorkQueue,
} from './storage/work-queue'

/** What became of a claimed item: finished, or back in the queue until `dueAt`. */
export type WorkResult =
  | { readonly done: true }
  | { readonly done: false; readonly dueAt: number; readonly payload: WorkPayload }

export const workDone: WorkResult = { done: true }

export interface WorkRunnerOptions {
  queue: WorkQueue
  kind: WorkKind
  /**
   * How long a claim holds before another process may take the item: longer than the work can
   * take, or work still running would be run a second time elsewhere.
   */
  leaseMs: number
  /**
   * How many more items may be claimed now, given how many this runner is running. Asked
   * before every claim, so a runner whose items wait on something else can say so.
   */
  capacity(running: number): number
  /** Runs one claimed item. Throwing is reported to `onError` and ends the item. */
  run(work: ClaimedWork): Promise<WorkResult>
  onError(error: unknown, work?: ClaimedWork): void
  /**
   * Another process sharing the database may add work or die holding claims: the runner looks
   * for due work this often even when nothing here woke it. Work this process adds wakes the
   * runner as soon as it is committed, through the queue's `onAdded`. Default 1,000 ms.
   */
  pollMs?: number
  /** Where due times are read and waited for. Default: the system clock. */
  clock?: SandboxClock
}

export interface WorkRunner {
  /**
   * Looks for due work soon (in a microtask, so that wake-ups in one step make one look): call
   * it when capacity frees up, or after adding work to a queue that does not announce it.
   */
  wake(): void
  /** Items claimed and not yet finished. */
  readonly running: number
  /** Stops claiming and waits for the items running; their results are still stored. */
  close(): Promise<void>
}

/**
 * Runs the due work of one kind from the store's queue: work is looked for as soon as the queue
 * announces it committed, when the earliest future item becomes due (one timer) and when a
 * finished item frees capacity; each look claims as many items as there is capacity for, and
 * each finished item is completed or rescheduled with its claim, so work another process took
 * over is never touched. All wake-ups are unref'd: pending work alone does not keep a process
 * alive. Work already in the queue (stored by an earlier process) is looked for at once.
 */
export function createWorkRunner(options: WorkRunnerOptions): WorkRunner {
  const { queue, kind, leaseMs, clock = systemClock } = options
  const running = new Set<Promise<void>>()
  /** Cancels the wake-up waiting for the earliest due item. */
  let cancelWakeUp: (() => void) | undefined
  /** When the armed wake-up comes: re-arming for the same time would only churn timers. */
  let wakeUpDueAt: number | undefined
  /** A look is scheduled or under way; a wake-up meanwhile makes it look again, not run twice. */
  let pumping = false
  /** The latest look, for close() to wait for what it claims. */
  let lastPump: Promise<void> = Promise.resolve()
  let pumpAgain = false
  /** The latest look stopped at the capacity: an item that finishes makes room for due work. */
  let heldBack = false
  let closed = false
  const poll = setInterval(() => wake(), options.pollMs ?? 1_000).unref()
  const stopListening = queue.onAdded?.((added) => {
    if (added === kind) wake()
  })

  function wake() {
    if (closed) return
    if (pumping) {
      pumpAgain = true
      return
    }
    pumping = true
    lastPump = Promise.resolve()
      .then(pump)
      .catch((error: unknown) => options.onError(error))
  }

  async function pump() {
    try {
      do {
        pumpAgain = false
        heldBack = false
        let exhausted = false
        while (!closed) {
          const limit = options.capacity(running.size)
          if (limit <= 0) {
            heldBack = true
            break
          }
          const claimed = await queue.claim(kind, clock.now(), limit, leaseMs)
          for (const work of claimed) start(work)
          if (claimed.length < limit) {
            exhausted = true
            break
          }
        }
        // At capacity, a finishing item wakes the runner: a timer for work already due would spin.
        if (exhausted && !closed) await arm()
      } while (pumpAgain && !closed)
    } finally {
      // In the same step as the last look: a wake-up from now on starts a new one.
      pumping = false
    }
  }

  async function arm() {
    const dueAt = await queue.nextDueAt(kind)
    if (closed || dueAt === wakeUpDueAt) return
    cancelWakeUp?.()
    cancelWakeUp = undefined
    wakeUpDueAt = dueAt
    if (dueAt === undefined) return
    cancelWakeUp = clock.wakeAt(dueAt, () => {
      cancelWakeUp = undefined
      wakeUpDueAt = undefined
      wake()
    })
  }

  wake()

  function start(work: ClaimedWork) {
    // Off the running set whatever happens: `finish` rejects only when `onError` itself throws.
    const task = finish(work)
      .finally(() => running.delete(task))
      .then((rescheduled) => {
        // A look costs a claim and a read of the next due time: it is worth them when this item
        // freed capacity the last look lacked, went back to the queue at a time no wake-up covers
        // yet, or when work is due already. Timers fire a little late, and a backlog that comes
        // back at its receiver's pace is claimed as items finish rather than one timer at a time.
        if (heldBack || rescheduled || (wakeUpDueAt !== undefined && wakeUpDueAt <= clock.now())) {
          wake()
        }
      })
    running.add(task)
  }

  /** Runs the item and stores its outcome; true when it went back to the queue. */
  async function finish(work: ClaimedWork): Promise<boolean> {
    let result: WorkResult = workDone
    try {
      result = await options.run(work)
    } catch (error) {
      options.onError(error, work)
    }
    try {
      await store({ work, ...result })
    } catch (error) {
      options.onError(error, work)
    }
    return !result.done
  }

  /** Outcomes waiting to be stored together, each with its item's way to go on. */
  let unstored: { outcome: WorkOutcome; stored(): void; failed(error: unknown): void }[] = []
  /** A batch is being stored: outcomes meanwhile wait to go in the next one. */
  let storing = false

  /**
   * Stores an item's outcome. Where the queue takes them in batches, an outcome is stored at once
   * when no batch is being stored, and otherwise goes in the next batch with every other that
   * ended meanwhile: nothing waits when the store keeps up, and under load a queue on a database
   * makes one round trip for many deliveries instead of one each.
   */
  function store(outcome: WorkOutcome): Promise<unknown> {
    if (queue.finish === undefined) {
      return outcome.done
        ? queue.complete(outcome.work)
        : queue.reschedule(outcome.work, outcome.dueAt, outcome.payload)
    }
    return new Promise<void>((stored, failed) => {
      unstored.push({ outcome, stored, failed })
      if (!storing) void storeBatch()
    })
  }

  async function storeBatch() {
    storing = true
    while (unstored.length > 0) {
      const batch = unstored
      unstored = []
      try {
        // `store` batches only for a queue that has `finish`.
        await queue.finish?.(batch.map(({ outcome }) => outcome))
        for (const { stored } of batch) stored()
      } catch (error) {
        for (const { failed } of batch) failed(error)
      }
    }
    storing = false
  }

  return {
    wake,
    get running() {
      return running.size
    },
    async close() {
      closed = true
      clearInterval(poll)
      stopListening?.()
      cancelWakeUp?.()
      // A claim under way still starts what it claimed; wait for that, then for every item.
      await lastPump
      await Promise.all(running)
    },
  }
}
