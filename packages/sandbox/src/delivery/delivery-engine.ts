import { SandboxError } from '../errors'
import { accountScopedKey } from './account-scoped-key'
import { resolveDeliverySettings } from './delivery-options'
import { buildDeliveryRequest, type DeliveryRequest } from './delivery-request'
import { createHttpTransport } from './node-http-transport'
import { ReceiverLanes } from './receiver-lanes'
import { delayBeforeAttempt } from './schedule'
import { createDeliverySigner } from './standard-webhooks-signer'
import { TimerQueue } from './timer-queue'
import type {
  AttemptKind,
  DeliveryAttempt,
  DeliveryEngine,
  DeliveryEngineOptions,
  DeliveryJob,
  DeliveryProgress,
} from './types'

/** One event the engine is still working on. */
interface Delivery {
  readonly job: DeliveryJob
  readonly key: string
  readonly chargeKey: string
  /** Undefined when the events_url cannot be requested: every attempt then fails with 0. */
  readonly request: DeliveryRequest | undefined
  readonly origin: string
  readonly createdAt: number
  /** Index in the schedule of the next automatic attempt: 0 until the first one has finished. */
  next: number
  /**
   * chained: behind an earlier event of its charge; scheduled: waiting in the timer queue;
   * queued: waiting in its receiver's lane; sending: the attempt is in flight.
   */
  state: 'chained' | 'scheduled' | 'queued' | 'sending'
  /** When the next automatic attempt is (or was) due. */
  dueAt: number
  /** A manual redelivery succeeded: the delivery retires without another attempt or report. */
  cancelled: boolean
}

const delivered: DeliveryProgress = { state: 'delivered' }
const scheduleEnded: DeliveryProgress = { state: 'schedule-ended' }

/**
 * The delivery engine of DESIGN §6. Each event's first attempt waits for the first attempt of
 * the previous event of its charge (so receivers see a charge's events in creation order), but
 * never for its retries. Ready attempts wait in per-receiver lanes, served round-robin under a
 * global and a per-receiver cap; retries wait in one timer queue. Nothing here awaits a
 * receiver on the caller's behalf except `redeliver`, so the API is never held up.
 */
export function createDeliveryEngine(options: DeliveryEngineOptions): DeliveryEngine {
  const settings = resolveDeliverySettings(options)
  const sign =
    settings.signingSecret === undefined ? undefined : createDeliverySigner(settings.signingSecret)
  const transport = createHttpTransport({ timeoutMs: settings.timeoutMs })
  const tracked = new Map<string, Delivery>()
  /** Present while a charge has a first attempt under way; holds the ones waiting behind it. */
  const chains = new Map<string, Delivery[]>()
  const lanes = new ReceiverLanes<Delivery>(settings.perOriginConcurrency)
  const retries = new TimerQueue<Delivery>((delivery) => queue(delivery))
  const sending = new Set<Promise<unknown>>()
  let inFlight = 0
  let closing: Promise<void> | undefined

  function enqueue(job: DeliveryJob, createdAt: Date): void {
    if (closing !== undefined) return
    const key = accountScopedKey(job.accountId, job.eventId)
    // Enqueuing an event twice must not run its schedule twice.
    if (tracked.has(key)) return
    if (tracked.size >= settings.maxQueue) {
      shed(job)
      return
    }
    const request = buildDeliveryRequest(job)
    const delivery: Delivery = {
      job,
      key,
      chargeKey: accountScopedKey(job.accountId, job.chargeId),
      request,
      // A URL that cannot be requested still needs a lane; its own text keeps it apart.
      origin: request?.origin ?? job.eventsUrl,
      createdAt: createdAt.getTime(),
      next: 0,
      state: 'chained',
      // Due when created; behind an earlier event of its charge it waits for that one first.
      dueAt: createdAt.getTime(),
      cancelled: false,
    }
    tracked.set(key, delivery)
    const chain = chains.get(delivery.chargeKey)
    if (chain === undefined) {
      chains.set(delivery.chargeKey, [])
      startFirstAttempt(delivery)
    } else {
      insertByCreation(chain, delivery)
    }
  }

  function startFirstAttempt(delivery: Delivery) {
    const delay = delayBeforeAttempt(settings.schedule, 0, settings.timeScale) ?? 0
    wait(delivery, Date.now() + delay)
  }

  function wait(delivery: Delivery, dueAt: number) {
    delivery.dueAt = dueAt
    if (dueAt <= Date.now()) {
      queue(delivery)
      return
    }
    delivery.state = 'scheduled'
    retries.add(delivery, dueAt)
  }

  function queue(delivery: Delivery) {
    delivery.state = 'queued'
    lanes.push(delivery.origin, delivery)
    pump()
  }

  function pump() {
    while (inFlight < settings.concurrency) {
      const delivery = lanes.take()
      if (delivery === undefined) return
      if (delivery.cancelled) {
        lanes.done(delivery.origin)
        retire(delivery)
        continue
      }
      attemptAutomatically(delivery)
    }
  }

  function attemptAutomatically(delivery: Delivery) {
    delivery.state = 'sending'
    inFlight++
    const kind: AttemptKind = delivery.next === 0 ? 'first' : 'retry'
    void track(send(delivery.job, delivery.request, kind)).then((attempt) => {
      inFlight--
      lanes.done(delivery.origin)
      if (closing !== undefined) return
      finishAutomatic(delivery, attempt)
      pump()
    })
  }

  function finishAutomatic(delivery: Delivery, attempt: DeliveryAttempt) {
    const wasFirst = delivery.next === 0
    delivery.next++
    // A manual redelivery delivered the event meanwhile and reported that: this attempt's
    // result, whatever it is, must not overwrite it.
    if (delivery.cancelled) {
      retire(delivery, wasFirst)
      return
    }
    if (isSuccess(attempt.resultStatus)) {
      retire(delivery, wasFirst)
      report(delivery.job, attempt, delivered)
      return
    }
    const delay = delayBeforeAttempt(settings.schedule, delivery.next, settings.timeScale)
    if (delay === undefined) {
      retire(delivery, wasFirst)
      report(delivery.job, attempt, scheduleEnded)
      return
    }
    // A failing event goes back to the timer queue, so the next event of its charge goes now.
    if (wasFirst) releaseChain(delivery.chargeKey)
    const dueAt = Date.now() + delay
    report(delivery.job, attempt, { state: 'retrying', nextAttemptAt: new Date(dueAt) })
    // onAttempt may have closed the engine; a retry queued now would outlive close().
    if (closing === undefined) wait(delivery, dueAt)
  }

  /** Stops tracking an event; `releasesChain` when its charge's next event may go now. */
  function retire(delivery: Delivery, releasesChain = delivery.next === 0) {
    if (tracked.get(delivery.key) === delivery) tracked.delete(delivery.key)
    if (releasesChain) releaseChain(delivery.chargeKey)
  }

  function releaseChain(chargeKey: string) {
    const following = chains.get(chargeKey)?.shift()
    if (following === undefined) chains.delete(chargeKey)
    else startFirstAttempt(following)
  }

  async function redeliver(job: DeliveryJob): Promise<DeliveryAttempt> {
    if (closing !== undefined) {
      throw new SandboxError(
        'The delivery engine is closed; start a new sandbox to redeliver events.',
      )
    }
    const attempt = await track(send(job, buildDeliveryRequest(job), 'manual'))
    if (closing !== undefined) return attempt
    const active = tracked.get(accountScopedKey(job.accountId, job.eventId))
    const ongoing = active !== undefined && !active.cancelled ? active : undefined
    if (isSuccess(attempt.resultStatus)) {
      if (ongoing !== undefined) cancel(ongoing)
      report(job, attempt, delivered)
    } else if (ongoing === undefined) {
      report(job, attempt, scheduleEnded)
    } else {
      report(job, attempt, {
        state: ongoing.next === 0 ? 'awaiting-first-attempt' : 'retrying',
        nextAttemptAt: new Date(ongoing.dueAt),
      })
    }
    return attempt
  }

  /** Stops the automatic attempts of an event a manual redelivery delivered. */
  function cancel(delivery: Delivery) {
    delivery.cancelled = true
    if (delivery.state === 'scheduled') {
      // Out of the timer queue now, not when its time comes (up to 10 h later).
      retries.remove(delivery)
      retire(delivery)
    } else if (delivery.state === 'chained') {
      // Not its charge's head (that one is never 'chained'), so the chain goes on without it.
      const chain = chains.get(delivery.chargeKey) as Delivery[]
      chain.splice(chain.indexOf(delivery), 1)
      retire(delivery, false)
    }
    // A queued one retires when its lane serves it; one in flight when its attempt ends.
  }

  async function send(
    job: DeliveryJob,
    request: DeliveryRequest | undefined,
    kind: AttemptKind,
  ): Promise<DeliveryAttempt> {
    const at = new Date()
    if (request === undefined) return { at, resultStatus: 0, kind }
    const resultStatus = await transport.send(request, sign?.(job.eventId, at, request.body))
    return { at, resultStatus, kind }
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    sending.add(promise)
    const forget = () => sending.delete(promise)
    promise.then(forget, forget)
    return promise
  }

  /** Past `maxQueue` an event is given up at once and reported, so memory stays bounded. */
  function shed(job: DeliveryJob) {
    const error = new SandboxError(
      `Event ${job.eventId} was not delivered: ${settings.maxQueue} events are already waiting ` +
        'for their receivers (maxQueue). Fix or remove the failing receivers, then redeliver it.',
    )
    onError(error, job)
    // Recorded as a first attempt that got no answer, and the event's last.
    report(job, { at: new Date(), resultStatus: 0, kind: 'first' }, scheduleEnded)
  }

  function report(job: DeliveryJob, attempt: DeliveryAttempt, progress: DeliveryProgress) {
    try {
      options.onAttempt(job, attempt, progress)
    } catch (error) {
      onError(error, job)
    }
  }

  function onError(error: unknown, job: DeliveryJob) {
    if (options.onError !== undefined) options.onError(error, job)
    else console.error(`chargekit-sandbox: delivery of event ${job.eventId}:`, error)
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      retries.clear()
      lanes.clear()
      chains.clear()
      tracked.clear()
      transport.close()
      await Promise.allSettled([...sending])
    })()
    return closing
  }

  return { enqueue, redeliver, close }
}

function isSuccess(status: number) {
  return status >= 200 && status < 300
}

/** Keeps a charge's waiting events in creation order even if they were enqueued out of order. */
function insertByCreation(chain: Delivery[], delivery: Delivery) {
  let index = chain.length
  while (index > 0 && (chain[index - 1] as Delivery).createdAt > delivery.createdAt) index--
  chain.splice(index, 0, delivery)
}
