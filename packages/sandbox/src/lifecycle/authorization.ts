import { randomBytes } from 'node:crypto'
import type { Charge, EventType } from '@chargekit/schemas'
import { ApiProblem, declined } from '../api-problem'
import { isErrorTestingChannel } from '../processors/no-processor'
import type { Outcome, Processor } from '../processors/processor'
import type { ChallengeRecord, InstrumentRecord } from '../storage/records'
import { capture } from './capture'
import { atomically, processorOf, revise, type StepContext } from './context'
import { instrumentExternalIds } from './external-ids'
import type { LaterWork } from './later-work'
import { money } from './money'
import { mustGet } from './objects'
import { answerLater } from './pending'
import { failureOf, processorMessage } from './processor-call'

/**
 * Records the processor's answer to an authorization (the instrument step), under the charge's
 * lock: `instrument.risk` when a risk rule fired (any 06.* code, or a flagged outcome), then
 * `instrument.authorized` (and the payment at once when `captured_on_creation`),
 * `instrument.pending` (a 3DS page, or the processor answering later) or `instrument.invalid`.
 * `origin` is where the customer reaches the sandbox, for the 3DS page's URL.
 */
export async function finishAuthorization(
  context: StepContext,
  instrumentId: string,
  outcome: Outcome,
  origin: string,
): Promise<InstrumentRecord> {
  const { deps, account } = context
  const instrument = await mustGet(context, 'instrument', instrumentId)
  // Invalidated by the merchant while the processor was still deciding: nothing left to decide.
  if (instrument.status !== 'pending') return instrument
  const charge = await mustGet(context, 'charge', instrument.charge.id)
  const { processor } = processorOf(context, charge)
  // Everything is computed before the first write, so a step never stops half-written.
  const next = nextState(context, processor, instrument, outcome, origin)
  const later = laterWorkOf(context, outcome, { chargeId: charge.id, instrumentId, origin })
  await atomically(context, async () => {
    if (isRiskFlagged(outcome)) {
      await deps.recordEvent(account.id, 'instrument.risk', instrument.id, { charge, instrument })
    }
    if (next.challenge !== undefined) await deps.store.putChallenge(next.challenge)
    await deps.store.putObject(account.id, 'instrument', next.instrument)
    await deps.recordEvent(
      account.id,
      next.event,
      next.instrument.id,
      { charge, instrument: next.instrument },
      later,
    )
  })
  if (outcome.status === 'pending') return next.instrument
  if (outcome.status === 'failed') {
    const { code, description, message } = failureOf(outcome)
    throw declined(code, description, { charge: charge.id, instrument: instrument.id }, message)
  }
  if (next.instrument.captured_on_creation !== true) return next.instrument
  return captureOnCreation(context, charge, next.instrument)
}

/**
 * The timed work a pending authorization starts, stored with its `instrument.pending` event: the
 * processor's later answer, or the customer's deadline and the simulated customer's answer.
 */
function laterWorkOf(
  context: StepContext,
  outcome: Outcome,
  ids: { chargeId: string; instrumentId: string; origin: string },
): LaterWork[] {
  if (outcome.status !== 'pending') return []
  if (outcome.awaiting === 'processor') {
    return [answerLater(context, outcome, { task: 'authorization-answer', ...ids })]
  }
  const requestLog = context.requestLog
  const work: LaterWork[] = []
  if (outcome.expiresAfterMs !== undefined) {
    work.push({
      task: { task: 'customer-deadline', ...ids, requestLog },
      afterMs: outcome.expiresAfterMs,
    })
  }
  const simulated = outcome.customerAnswer
  if (simulated !== undefined) {
    work.push({
      task: { task: 'simulated-customer', approved: simulated.approved, ...ids, requestLog },
      afterMs: simulated.afterMs,
    })
  }
  return work
}

function isRiskFlagged(outcome: Outcome): boolean {
  return (
    ('risk' in outcome && outcome.risk === true) ||
    (outcome.status === 'failed' && outcome.code.startsWith('06.'))
  )
}

/** The instrument after the outcome, the event that reports it, and a 3DS challenge if any. */
function nextState(
  context: StepContext,
  processor: Processor,
  instrument: InstrumentRecord,
  outcome: Outcome,
  origin: string,
): { instrument: InstrumentRecord; event: EventType; challenge?: ChallengeRecord } {
  // The processor's reference for the authorization, when it gives one.
  const references =
    outcome.transactionId === undefined
      ? {}
      : { external_ids: instrumentExternalIds(processor, outcome.transactionId) }
  if (outcome.status === 'pending') {
    if (outcome.awaiting === 'processor') {
      return { instrument: revise(context, instrument, references), event: 'instrument.pending' }
    }
    const action = outcome.action ?? { type: 'approval_page' }
    const expiresAt =
      outcome.expiresAfterMs === undefined
        ? {}
        : {
            expires_at: new Date(
              context.deps.now().getTime() + outcome.expiresAfterMs * context.deps.timeScale,
            ).toISOString(),
          }
    const token = randomBytes(24).toString('base64url')
    // Reached by navigation, with no header: the public key in the query names the account.
    const redirect =
      action.type === 'approval_page'
        ? {
            url: `${origin}/v2/instruments/${encodeURIComponent(instrument.id)}/redirect?public_key=${encodeURIComponent(context.account.publicKey)}`,
            method: 'GET',
            ...(outcome.expiresAfterMs === undefined ? {} : { parameters: expiresAt }),
          }
        : { url: null, method: null, parameters: { ...action.parameters, ...expiresAt } }
    return {
      instrument: revise(context, instrument, {
        ...references,
        redirect: Object.freeze(redirect),
      }),
      event: 'instrument.pending',
      challenge: {
        accountId: context.account.id,
        instrumentId: instrument.id,
        token,
        action: action.type,
      },
    }
  }
  if (outcome.status === 'failed') {
    const { code, description, message } = failureOf(outcome)
    return {
      instrument: revise(context, instrument, {
        ...references,
        status: 'invalid',
        success: false,
        redirect: null,
        failure_code: code,
        failure_description: description,
        ...processorMessage(message),
      }),
      event: 'instrument.invalid',
    }
  }
  return {
    instrument: revise(context, instrument, {
      ...references,
      status: 'authorized',
      success: true,
      redirect: null,
    }),
    event: 'instrument.authorized',
  }
}

/**
 * `captured_on_creation`: the full charge amount is captured at once; a decline answers 402
 * naming the payment. On the error-testing channel the capture is part of the instrument step,
 * as that procedure states: the instrument fails with it (`payment.error`, then
 * `instrument.invalid` with the payment's code). Elsewhere the authorization stays open, so the
 * capture can be retried with POST /v2/payments or the authorization reversed; so does it when
 * the processor confirms the capture later, whatever its answer.
 */
async function captureOnCreation(
  context: StepContext,
  charge: Charge,
  instrument: InstrumentRecord,
) {
  try {
    await capture(context, charge, instrument, money(charge.amount, charge.currency), {
      description: '',
      metadata: {},
    })
  } catch (error) {
    const isDecline = error instanceof ApiProblem && error.status === 402
    if (isDecline && isErrorTestingChannel(charge.channels?.[0])) {
      await invalidateWithDecline(context, charge, instrument, error)
    }
    throw error
  }
  return mustGet(context, 'instrument', instrument.id)
}

async function invalidateWithDecline(
  context: StepContext,
  charge: Charge,
  instrument: InstrumentRecord,
  decline: ApiProblem,
): Promise<void> {
  const { failure_code = null, failure_description = null, failure_message } = decline.body
  const invalid = revise(context, await mustGet(context, 'instrument', instrument.id), {
    status: 'invalid',
    success: false,
    failure_code,
    failure_description,
    ...processorMessage(failure_message),
  })
  await context.deps.store.putObject(context.account.id, 'instrument', invalid)
  await context.deps.recordEvent(context.account.id, 'instrument.invalid', invalid.id, {
    charge,
    instrument: invalid,
  })
}
