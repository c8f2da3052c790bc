import { type DeliveryStatus, toCompactEvent } from '@chargekit/schemas'
import {
  accountScopedKey,
  createDeliveryEngine,
  type DeliveryAttempt,
  type DeliveryJob,
  type DeliveryProgress,
} from './delivery/index'
import type { SandboxLogger } from './logger'
import type { StoredEvent } from './storage/records'
import type { SandboxStore } from './storage/sandbox-store'

/** The sandbox's side of event delivery: feeds the engine and logs its attempts on events. */
export interface EventDelivery {
  /** Queues an event's delivery (called for every recorded event). */
  enqueue(accountId: string, event: StoredEvent): void
  /** One manual attempt now; resolves once it is recorded on the event. */
  redeliver(accountId: string, event: StoredEvent): Promise<void>
  close(): Promise<void>
}

export function createEventDelivery(options: {
  store: SandboxStore
  timeScale: number
  signingSecret: string | undefined
  logger: SandboxLogger
}): EventDelivery {
  const { store, logger } = options
  // The latest pending store update per event, so redeliver can answer with the recorded result.
  const updates = new Map<string, Promise<unknown>>()

  const engine = createDeliveryEngine({
    timeScale: options.timeScale,
    ...(options.signingSecret === undefined ? {} : { signingSecret: options.signingSecret }),
    onAttempt: (job, attempt, next) => {
      const key = accountScopedKey(job.accountId, job.eventId)
      const previous = updates.get(key) ?? Promise.resolve()
      const update = previous
        .then(() => recordAttempt(store, job, attempt, next))
        .catch((error: unknown) =>
          logger.error('could not record a delivery attempt', { event: job.eventId, error }),
        )
      updates.set(key, update)
      void update.then(() => {
        if (updates.get(key) === update) updates.delete(key)
      })
    },
    onError: (error, job) =>
      logger.warn('event delivery problem', { event: job.eventId, account: job.accountId, error }),
  })

  return {
    enqueue(accountId, event) {
      if (event.delivery_status === 'none') return
      engine.enqueue(jobOf(accountId, event), new Date(event.created_at))
    },
    async redeliver(accountId, event) {
      await engine.redeliver(jobOf(accountId, event))
      await updates.get(accountScopedKey(accountId, event.id))
    },
    close: () => engine.close(),
  }
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
 * automatic retry and every manual redelivery, as the spec's example shows, but not for the
 * first automatic attempt.
 */
async function recordAttempt(
  store: SandboxStore,
  job: DeliveryJob,
  attempt: DeliveryAttempt,
  next: DeliveryProgress,
): Promise<void> {
  const event = await store.getEvent(job.accountId, job.eventId)
  if (event === undefined) return
  await store.updateEvent(job.accountId, job.eventId, {
    result_status: attempt.resultStatus,
    retries_log:
      attempt.kind === 'first'
        ? event.retries_log
        : [
            { created_at: attempt.at.toISOString(), result_status: attempt.resultStatus },
            ...event.retries_log,
          ],
    delivery_status: deliveryStatusAfter(next, event.delivery_status),
    next_attempt_at: 'nextAttemptAt' in next ? next.nextAttemptAt.toISOString() : null,
  })
}

/**
 * An event that was delivered stays `delivered` when a later manual redelivery fails: the
 * receiver did get it, and that failure is still visible in `result_status` and `retries_log`.
 */
function deliveryStatusAfter(next: DeliveryProgress, current: DeliveryStatus): DeliveryStatus {
  switch (next.state) {
    case 'delivered':
      return 'delivered'
    case 'awaiting-first-attempt':
      return 'pending'
    case 'retrying':
      return 'failing'
    case 'schedule-ended':
      return current === 'delivered' ? 'delivered' : 'exhausted'
  }
}
