import type { SandboxClock } from '../clock'
import type { NewWork, WorkQueue } from '../storage/work-queue'

/** One event to deliver to its charge's `events_url`. */
export interface DeliveryJob {
  accountId: string
  eventId: string
  eventType: string
  chargeId: string
  eventsUrl: string
  /** The JSON body of every attempt, serialized once for the event. */
  body: string
}

/**
 * Which attempt it was: the event's `first` automatic attempt, an automatic `retry`, or a
 * `manual` redelivery. Only the first one is not a retry (it stays out of `retries_log`).
 */
export type AttemptKind = 'first' | 'retry' | 'manual'

/** One HTTP attempt, automatic or manual. */
export interface DeliveryAttempt {
  at: Date
  /** HTTP status of the answer; 0 when there was none (refused, timed out, TLS or URL error). */
  resultStatus: number
  /** Why there was no answer (`ECONNREFUSED`, `timeout after 10 s`); undefined when one came. */
  failure?: string | undefined
  /** How long the attempt took, from sending to the status (or the failure). */
  durationMs: number
  kind: AttemptKind
}

/**
 * What the engine will do for the event after an automatic attempt.
 * - `delivered`: the attempt succeeded; no automatic attempt follows.
 * - `retrying`: automatic attempts go on; `nextAttemptAt` is when the next one is due (a time
 *   already past means it is due and waiting for a free slot).
 * - `schedule-ended`: the schedule is used up.
 */
export type DeliveryProgress =
  | { readonly state: 'delivered' | 'schedule-ended' }
  | { readonly state: 'retrying'; readonly nextAttemptAt: Date }

export interface DeliveryEngineOptions {
  /** Where deliveries wait for their attempts: the store's work queue. */
  queue: WorkQueue
  /**
   * The delivery of an event when an automatic attempt is due, read again each time; undefined
   * when it needs no more automatic attempts (the event is gone, or a manual redelivery
   * delivered it).
   */
  loadJob(accountId: string, eventId: string): Promise<DeliveryJob | undefined>
  /** Multiplies every retry delay (0.001 turns 5 min into 300 ms). Default 1. */
  timeScale?: number
  /**
   * Each account's Standard Webhooks secret, by account id: `whsec_<base64>` or any other string
   * used as raw key bytes. The deliveries of an account without one go unsigned.
   */
  signingSecrets?: ReadonlyMap<string, string>
  /** Attempts in flight at once, over all receivers. Default 256. */
  concurrency?: number
  /**
   * Attempts in flight at once for one account, over all its receivers, so one account's
   * hanging receivers cannot delay another account's deliveries. Default 64.
   */
  perAccountConcurrency?: number
  /**
   * Attempts in flight at once to one receiver origin of an account, so a slow one cannot take
   * every slot. Default 64: enough for one receiver to keep pace with a busy API in the same
   * process.
   */
  perOriginConcurrency?: number
  /** An attempt fails without a status within this time. Default 10,000 ms; never scaled. */
  timeoutMs?: number
  /** Delay before each automatic attempt, after the event (first) or the previous failure (others), unscaled ms. */
  schedule?: readonly number[]
  /**
   * How often to look for work other processes sharing the store added (work added here is
   * announced by the queue the moment it is committed). Default 1,000 ms.
   */
  pollMs?: number
  /** Where attempts' times, retry due times and time-outs are read. Default: the system clock. */
  clock?: SandboxClock
  /**
   * Records an attempt (awaited before the next one of the event). `next` is what the engine
   * does after an automatic attempt; a manual redelivery (`attempt.kind === 'manual'`) changes
   * nothing in the schedule and has none.
   */
  onAttempt(
    job: DeliveryJob,
    attempt: DeliveryAttempt,
    next?: DeliveryProgress,
  ): void | Promise<void>
  /** Called when `onAttempt` or the queue throws; default: `console.error`. */
  onError?(error: unknown, about: { accountId?: string; eventId?: string }): void
}

export interface DeliveryEngine {
  /**
   * The work of an event's delivery, to store with the event: its first attempt is due when
   * the event is created.
   */
  workFor(job: Pick<DeliveryJob, 'accountId' | 'eventId' | 'eventsUrl'>, createdAt: Date): NewWork
  /** One manual attempt now, outside the schedule; also reported through `onAttempt`. */
  redeliver(job: DeliveryJob): Promise<DeliveryAttempt>
  /**
   * Stops claiming, lets attempts in flight finish for up to `timeoutMs` (default 0) and
   * records them, then cuts the rest short and closes every socket; the work of an attempt cut
   * short or not started goes back to the queue unchanged, for another sandbox on the same
   * store. Idempotent.
   */
  close(options?: { timeoutMs?: number }): Promise<void>
}
