import { type DeliveryStatus, toCompactEvent } from '@chargekit/schemas'
import type { SandboxClock } from '../clock'
import { createKeyedLock } from '../keyed-lock'
import type { SandboxLogger } from '../logger'
import type { StoredEvent } from '../storage/records'
import type { SandboxStore } from '../storage/sandbox-store'
import type { NewWork } from '../storage/work-queue'
import { accountScopedKey } from './account-scoped-key'
import type { DeliveryAttemptLog } from './attempt-log'
import { createDeliveryEngine } from './delivery-engine'
import { loggedEventsUrl } from './delivery-request'
import type { DeliveryAttempt, DeliveryJob, DeliveryProgress } from './types'

/** The sandbox's side of event delivery: feeds the engine and logs its attempts on events. */
export interface EventDelivery {
  /** The work that delivers a new event, stored with it. */
  workFor(accountId: string, event: StoredEvent): NewWork
  /** One manual attempt now; resolves once it is recorded on the event. */
  redeliver(accountId: string, event: StoredEvent): Promise<void>
  /** The secret the account's deliveries are signed with; undefined when they go unsigned. */
  signingSecretOf(accountId: string): string | undefined
  /** Stops delivering; attempts in flight may finish for up to `timeoutMs` (default 0). */
  close(options?: { timeoutMs?: number }): Promise<void>
}

export function createEventDelivery(options: {
  store: SandboxStore
  timeScale: number
  /** Each account's signing secret, by account id; an account without one delivers unsigned. */
  signingSecrets: ReadonlyMap<string, string>
  timeoutMs: number | undefined
  logger: SandboxLogger
  clock: SandboxClock
  /** Keeps every attempt's status, failure reason and duration for the dashboard. */
  attempts?: DeliveryAttemptLog
}): EventDelivery {
  const { store, logger } = options
  // An event's attempts are recorded one at a time: a manual redelivery and an automatic
  // attempt ending together must not both read the same retries_log.
  const recording = createKeyedLock()

  const engine = createDeliveryEngine({
    queue: store.work,
    timeScale: options.timeScale,
    clock: options.clock,
    signingSecrets: options.signingSecrets,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    async loadJob(accountId, eventId) {
      const event = await store.getEvent(accountId, eventId)
      return event === undefined || event.delivery_status === 'delivered'
        ? undefined
        : jobOf(accountId, event)
    },
    onAttempt: (job, attempt, next) => {
      logAttempt(logger, job, attempt)
      options.attempts?.record(job, attempt)
      return recording.run(accountScopedKey(job.accountId, job.eventId), () =>
        recordAttempt(store, job, attempt, next),
      )
    },
    onError: (error, about) => logger.warn('event delivery problem', { ...about, error }),
  })

  return {
    workFor: (accountId, event) =>
      engine.workFor(
        { accountId, eventId: event.id, eventsUrl: event.charge.events_url },
        new Date(event.created_at),
      ),
    async redeliver(accountId, event) {
      await engine.redeliver(jobOf(accountId, event))
    },
    signingSecretOf: (accountId) => options.signingSecrets.get(accountId),
    close: (options) => engine.close(options),
  }
}

/**
 * One log line per attempt, automatic or manual: which event went where, and the receiver's
 * status or why none came. The URL's query is left out: merchants put tokens there.
 */
function logAttempt(logger: SandboxLogger, job: DeliveryJob, attempt: DeliveryAttempt) {
  const url = loggedEventsUrl(job.eventsUrl)
  const outcome =
    attempt.failure === undefined ? String(attempt.resultStatus) : `failed (${attempt.failure})`
  logger.info(`deliver ${job.eventType} ${job.eventId} to ${url} ${outcome}`, {
    event_id: job.eventId,
    event_type: job.eventType,
    url,
    status: attempt.resultStatus,
    failure: attempt.failure,
    duration_ms: attempt.durationMs,
    attempt: attempt.kind,
    account: job.accountId,
  })
}

/** The delivery of an event: its compact form is the body of every attempt. */
function jobOf(accountId: string, event: StoredEvent): DeliveryJob {
  return {
    accountId,
    eventId: event.id,
    eventType: event.type,
    chargeId: event.charge.id,
    eventsUrl: event.charge.events_url,
    body: JSON.stringify(toCompactEvent(event)),
  }
}

/**
 * `result_status` is the latest attempt's; `retries_log` gets an entry (newest first) for every
 * automatic retry and every manual redelivery, but not for the first automatic attempt. An
 * automatic attempt that ends after a manual redelivery delivered the event is not recorded:
 * the receiver did get the event, and the result shown stays the successful one.
 */
async function recordAttempt(
  store: SandboxStore,
  job: DeliveryJob,
  attempt: DeliveryAttempt,
  next: DeliveryProgress | undefined,
): Promise<void> {
  const event = await store.getEvent(job.accountId, job.eventId)
  if (event === undefined) return
  if (next !== undefined && event.delivery_status === 'delivered') return
  await store.updateEvent(job.accountId, job.eventId, {
    result_status: attempt.resultStatus,
    retries_log:
      attempt.kind === 'first'
        ? event.retries_log
        : [
            { created_at: attempt.at.toISOString(), result_status: attempt.resultStatus },
            ...event.retries_log,
          ],
    ...statusAfter(event, attempt, next),
  })
}

/**
 * After an automatic attempt, the engine's plan decides. A manual redelivery changes no plan:
 * when it fails, an event whose automatic attempts go on keeps its status and next attempt, and
 * one that was delivered stays `delivered` (the receiver did get it; that failure is still
 * visible in `result_status` and `retries_log`).
 */
function statusAfter(
  event: StoredEvent,
  attempt: DeliveryAttempt,
  next: DeliveryProgress | undefined,
): { delivery_status: DeliveryStatus; next_attempt_at: string | null } {
  const ended = (status: DeliveryStatus) => ({ delivery_status: status, next_attempt_at: null })
  if (next === undefined) {
    if (attempt.resultStatus >= 200 && attempt.resultStatus < 300) return ended('delivered')
    switch (event.delivery_status) {
      case 'pending':
      case 'failing':
        return { delivery_status: event.delivery_status, next_attempt_at: event.next_attempt_at }
      case 'delivered':
        return ended('delivered')
      default:
        return ended('exhausted')
    }
  }
  switch (next.state) {
    case 'delivered':
      return ended('delivered')
    case 'retrying':
      return { delivery_status: 'failing', next_attempt_at: next.nextAttemptAt.toISOString() }
    case 'schedule-ended':
      return ended('exhausted')
  }
}
