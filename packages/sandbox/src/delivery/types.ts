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
  kind: AttemptKind
}

/**
 * What the engine will do for the event after an attempt.
 * - `delivered`: the attempt succeeded; no automatic attempt follows.
 * - `awaiting-first-attempt`: the automatic first attempt has not finished (a manual attempt
 *   went ahead of it).
 * - `retrying`: automatic attempts go on.
 * - `schedule-ended`: no automatic attempt is left: the schedule is used up, the event was shed,
 *   or the engine had already finished with it (delivered or exhausted) before this attempt.
 *
 * `nextAttemptAt` is when the next automatic attempt is due. A time already past means it is
 * due and waiting for a free slot or for its charge's earlier event, or is under way.
 */
export type DeliveryProgress =
  | { readonly state: 'delivered' | 'schedule-ended' }
  | { readonly state: 'awaiting-first-attempt' | 'retrying'; readonly nextAttemptAt: Date }

export interface DeliveryEngineOptions {
  /** Multiplies every retry delay (0.001 turns 5 min into 300 ms). Default 1. */
  timeScale?: number
  /** Standard Webhooks secret: `whsec_<base64>` or any other string used as raw key bytes. */
  signingSecret?: string
  /** Attempts in flight at once, over all receivers. Default 256. */
  concurrency?: number
  /**
   * Attempts in flight at once to one receiver origin, so a slow one cannot take every slot.
   * Default 64: enough for one receiver to keep pace with a busy API in the same process.
   */
  perOriginConcurrency?: number
  /** Events the engine tracks at once (waiting, queued, in flight); beyond it new events are shed. Default 100,000. */
  maxQueue?: number
  /** An attempt fails without a status within this time. Default 10,000 ms; never scaled. */
  timeoutMs?: number
  /** Delay before each automatic attempt, after the event (first) or the previous failure (others), unscaled ms. */
  schedule?: readonly number[]
  onAttempt(job: DeliveryJob, attempt: DeliveryAttempt, next: DeliveryProgress): void
  /** Called when `onAttempt` throws or an event is shed; default: `console.error`. */
  onError?(error: unknown, job: DeliveryJob): void
}

export interface DeliveryEngine {
  /** Schedules the event's first attempt now (after earlier events of the same charge). */
  enqueue(job: DeliveryJob, createdAt: Date): void
  /** One manual attempt now, outside the schedule; also reported through `onAttempt`. */
  redeliver(job: DeliveryJob): Promise<DeliveryAttempt>
  /** Stops timers, aborts attempts in flight and closes every socket. Idempotent. */
  close(): Promise<void>
}
