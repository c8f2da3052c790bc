import { systemClock } from '../clock'
import { SandboxError } from '../errors'
import type { ClaimedWork, NewWork } from '../storage/work-queue'
import { createWorkRunner, type WorkResult, workDone } from '../work-runner'
import { accountScopedKey } from './account-scoped-key'
import { CatchUp } from './catch-up'
import { resolveDeliverySettings } from './delivery-options'
import { buildDeliveryRequest, type DeliveryRequest, receiverOf } from './delivery-request'
import { ReceiverLanes } from './receiver-lanes'
import { delayBeforeAttempt } from './schedule'
import { createDeliverySigner } from './standard-webhooks-signer'
import type {
  AttemptKind,
  DeliveryAttempt,
  DeliveryEngine,
  DeliveryEngineOptions,
  DeliveryJob,
  DeliveryProgress,
} from './types'
import { createUndiciTransport } from './undici-transport'

/** The payload of a `delivery` work item: the event, and which automatic attempt is due. */
type DeliveryWork = {
  eventId: string
  /** Index in the schedule: 0 for the first attempt. */
  attempt: number
  /**
   * The origin of the events URL (the URL itself when it has none): what catch-up after an
   * outage finds the receiver's waiting attempts by. Work stored by 0.1.0 has none until its
   * next attempt.
   */
  receiver?: string
}

const delivered: DeliveryProgress = { state: 'delivered' }
const scheduleEnded: DeliveryProgress = { state: 'schedule-ended' }

/**
 * Delivers events from the store's work queue, so pending deliveries survive a restart and
 * several sandbox processes sharing a database each claim different attempts. No event waits for
 * another: a charge's events go out as they are created, so a receiver may get them in any
 * order, as from the production service. Claimed attempts are sent in
 * per-receiver lanes ({@link ReceiverLanes}) under a global, a per-account and a per-receiver
 * cap; an attempt whose receiver or account is already at its cap with a full waiting line goes
 * back to the queue until the lanes say it should find room, so no claim waits on another
 * account's receivers. A receiver that answers again after failing gets its waiting attempts
 * pulled forward ({@link CatchUp}). An event is claimed the moment the store commits it (the
 * queue announces it). Nothing here awaits a receiver on the caller's behalf except `redeliver`.
 */
export function createDeliveryEngine(options: DeliveryEngineOptions): DeliveryEngine {
  const settings = resolveDeliverySettings(options)
  const signers = new Map(
    Array.from(settings.signingSecrets, ([accountId, secret]) => [
      accountId,
      createDeliverySigner(secret),
    ]),
  )
  const clock = options.clock ?? systemClock
  const transport = createUndiciTransport({ timeoutMs: settings.timeoutMs, clock })
  const lanes = new ReceiverLanes({
    total: settings.concurrency,
    perAccount: settings.perAccountConcurrency,
    perLane: settings.perOriginConcurrency,
    timeoutMs: settings.timeoutMs,
  })
  const manual = new Set<Promise<unknown>>()
  /** No attempt starts any more. */
  let closing = false
  /** Attempts still in flight were cut short: their results are not recorded. */
  let cutShort = false
  const runner = createWorkRunner({
    queue: options.queue,
    kind: 'delivery',
    // A claimed attempt may first wait its turn (its lane's line, then its account's) and then
    // run until its timeout: the lease covers a few timeouts more than that.
    leaseMs: 4 * settings.timeoutMs + 60_000,
    capacity: () => settings.concurrency - lanes.inFlight,
    run: attemptDue,
    onError: (error, work) => reportError(error, work?.accountId, eventOf(work)),
    clock,
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  })
  const catchUp = new CatchUp({
    queue: options.queue,
    lanes,
    clock,
    onPulled: () => runner.wake(),
    onError: (error, accountId) => reportError(error, accountId),
  })

  function workFor(
    job: Pick<DeliveryJob, 'accountId' | 'eventId' | 'eventsUrl'>,
    createdAt: Date,
  ): NewWork {
    const payload: DeliveryWork = {
      eventId: job.eventId,
      attempt: 0,
      receiver: receiverOf(job.eventsUrl),
    }
    return {
      kind: 'delivery',
      accountId: job.accountId,
      payload,
      dueAt:
        createdAt.getTime() + (delayBeforeAttempt(settings.schedule, 0, settings.timeScale) ?? 0),
    }
  }

  /** One automatic attempt of a claimed item, and what becomes of the item after it. */
  async function attemptDue(work: ClaimedWork): Promise<WorkResult> {
    const { eventId, attempt: index } = work.payload as DeliveryWork
    const putBack: WorkResult = { done: false, dueAt: work.dueAt, payload: work.payload }
    if (closing) return putBack
    const job = await options.loadJob(work.accountId, eventId)
    // Gone, or delivered by a manual redelivery: no automatic attempt is left.
    if (job === undefined) return workDone
    const request = buildDeliveryRequest(job)
    const receiver = receiverOf(job.eventsUrl)
    // A URL that cannot be requested still needs a lane; its own text keeps it apart.
    const lane = accountScopedKey(job.accountId, receiver)
    const now = clock.now()
    const slot = lanes.enter(job.accountId, lane, now)
    catchUp.arrived(lane)
    if (typeof slot === 'number') {
      catchUp.turnedAway(lane, now)
      return { done: false, dueAt: slot, payload: { eventId, attempt: index, receiver } }
    }
    // A free slot is taken at once: awaiting it would only cost the attempt a turn.
    if (slot !== true && !(await slot)) return putBack
    let attempt: DeliveryAttempt
    try {
      attempt = await send(job, request, index === 0 ? 'first' : 'retry')
    } finally {
      lanes.leave(lane, clock.now())
    }
    // Cut short by close(): the attempt is neither reported nor counted, and runs again later.
    if (cutShort) return putBack
    if (isSuccess(attempt.resultStatus)) {
      catchUp.answered(lane, job.accountId, receiver, index > 0)
      await report(job, attempt, delivered)
      return workDone
    }
    catchUp.failed(lane, index > 0)
    const delay = delayBeforeAttempt(settings.schedule, index + 1, settings.timeScale)
    if (delay === undefined) {
      await report(job, attempt, scheduleEnded)
      return workDone
    }
    const dueAt = clock.now() + delay
    await report(job, attempt, { state: 'retrying', nextAttemptAt: new Date(dueAt) })
    const next: DeliveryWork = { eventId, attempt: index + 1, receiver }
    return { done: false, dueAt, payload: next }
  }

  async function redeliver(job: DeliveryJob): Promise<DeliveryAttempt> {
    if (closing) {
      throw new SandboxError(
        'The delivery engine is closed; start a new sandbox to redeliver events.',
      )
    }
    const sending = send(job, buildDeliveryRequest(job), 'manual')
    manual.add(sending)
    const attempt = await sending.finally(() => manual.delete(sending))
    if (!cutShort) await report(job, attempt)
    return attempt
  }

  async function send(
    job: DeliveryJob,
    request: DeliveryRequest | undefined,
    kind: AttemptKind,
  ): Promise<DeliveryAttempt> {
    const at = new Date(clock.now())
    if (request === undefined) {
      return { at, resultStatus: 0, failure: 'not an http(s) URL', durationMs: 0, kind }
    }
    const started = performance.now()
    const sign = signers.get(job.accountId)
    const { status, failure } = await transport.send(request, sign?.(job.eventId, at, request.body))
    const durationMs = Math.round(performance.now() - started)
    return { at, resultStatus: status, failure, durationMs, kind }
  }

  async function report(job: DeliveryJob, attempt: DeliveryAttempt, next?: DeliveryProgress) {
    try {
      await options.onAttempt(job, attempt, next)
    } catch (error) {
      reportError(error, job.accountId, job.eventId)
    }
  }

  function reportError(error: unknown, accountId?: string, eventId?: string) {
    const about = {
      ...(accountId === undefined ? {} : { accountId }),
      ...(eventId === undefined ? {} : { eventId }),
    }
    if (options.onError !== undefined) options.onError(error, about)
    else console.error(`chargekit-sandbox: delivery of event ${eventId ?? '(unknown)'}:`, error)
  }

  let closed: Promise<void> | undefined
  function close({ timeoutMs = 0 }: { timeoutMs?: number } = {}): Promise<void> {
    closed ??= (async () => {
      closing = true
      // Attempts waiting for a slot give their work back; those in flight may finish until the
      // deadline, when the rest are cut short.
      lanes.dropWaiting()
      const cut = () => {
        cutShort = true
        return transport.close()
      }
      if (timeoutMs <= 0) void cut()
      // Real time, not the sandbox's clock: a test clock that stands still must not hold a stop.
      const deadline = timeoutMs > 0 ? setTimeout(() => void cut(), timeoutMs) : undefined
      try {
        await runner.close()
        await Promise.allSettled([...manual])
      } finally {
        clearTimeout(deadline)
        // Every attempt has ended; this closes the idle keep-alive sockets.
        await cut()
      }
    })()
    return closed
  }

  return { workFor, redeliver, close }
}

function eventOf(work: ClaimedWork | undefined): string | undefined {
  const eventId = work?.payload.eventId
  return typeof eventId === 'string' ? eventId : undefined
}

function isSuccess(status: number) {
  return status >= 200 && status < 300
}
