// Instruments: what the customer pays with, from creation through the processor's authorization
// (which may open a challenge for the customer: 3DS, an app, a reference) to the merchant's
// invalidation. The customer's answer to a challenge is `customer-challenges.ts`; it ends here
// too, in `finishAuthorization`.

import { randomBytes } from 'node:crypto'
import { type CardParams, type Charge, cardDetailsSchema, type EventType } from '@chargekit/schemas'
import { expandPath, instrumentsRedirect } from '@chargekit/schemas/operations'
import { toCardInput } from '../card/card-params'
import { newId } from '../ids'
import { testsPaymentByAmount } from '../processors/no-processor'
import type { Outcome } from '../processors/outcome'
import type { AuthorizeRequest, Processor } from '../processors/processor'
import type { ChallengeRecord, InstrumentRecord } from '../storage/records'
import {
  atomically,
  callProcessor,
  chargeTypeOf,
  failureOf,
  processorMessage,
  processorOf,
  revise,
  type StepContext,
} from './context'
import { answerLater, type LaterWork } from './later-tasks'
import { declined, LifecycleError } from './lifecycle-error'
import { money } from './money'
import {
  allOf,
  chargeReferenceOf,
  instrumentExternalIds,
  mustGet,
  withObjectLocked,
} from './objects'
import { capture } from './payments'
import { reverse } from './reversals'
import { assertChargeAcceptsInstrument, inProgress } from './transitions'

/**
 * `instruments.create`: what the customer gave for a confirmed charge (`details`, already held
 * to the schema of the charge's type: a card, a phone number, nothing for a reference).
 * `instrument.created`, then the processor authorizes (see `finishAuthorization`). The charge
 * type may decline by itself first: an expired card is refused with 03.00.0002, whatever the
 * processor.
 */
export async function createInstrument(
  context: StepContext,
  chargeId: string,
  details: Readonly<Record<string, unknown>>,
  origin: string,
): Promise<InstrumentRecord> {
  const { deps, account } = context
  return withObjectLocked(context, 'charge', chargeId, async (charge) => {
    const chargeType = chargeTypeOf(context, charge)
    await assertChargeAcceptsInstrument(context, charge)
    const { processor, processorContext } = processorOf(context, charge)
    const params = charge.instrument_params
    const enable3ds = params?.enable3ds === true
    const recurring = params?.recurring === true
    const detailsContext = { fingerprint: account.fingerprint, enable3ds, now: deps.now() }
    const now = deps.now().toISOString()
    const created: InstrumentRecord = Object.freeze({
      id: newId('in'),
      status: 'pending',
      success: false,
      channel: processorContext.channel,
      customer: null,
      external_ids: instrumentExternalIds(processor),
      failure_description: null,
      redirect: null,
      request_log: context.requestLog,
      params: Object.freeze((chargeType.params?.(details, detailsContext) ?? {}) as CardParams),
      created_at: now,
      updated_at: now,
      charge: chargeReferenceOf(charge),
      last_payment: null,
      used: false,
      amount: charge.amount,
      currency: charge.currency,
      captured_amount: 0,
      recurring,
      captured_on_creation: params?.captured_on_creation === true,
      failure_code: null,
    })
    const card = cardDetailsSchema.safeParse(details)
    const request: AuthorizeRequest = {
      instrumentId: created.id,
      chargeType: chargeType.id,
      details: Object.freeze(details),
      ...(card.success ? { card: toCardInput(card.data) } : {}),
      amount: money(charge.amount, charge.currency),
      enable3ds,
      recurring,
    }
    await deps.store.putObject(account.id, 'instrument', created)
    await deps.recordEvent(account.id, 'instrument.created', created.id, {
      charge,
      instrument: created,
    })
    const outcome: Outcome =
      chargeType.screen?.(details, detailsContext) ??
      (await callProcessor(
        deps,
        processor.name,
        'authorize',
        () => processor.authorize(processorContext, request),
        'customer',
      ))
    return finishAuthorization(context, created.id, outcome, origin)
  })
}

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
    throw declined(failureOf(outcome), { charge: charge.id, instrument: instrument.id })
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
            url: `${origin}${expandPath(instrumentsRedirect.path, { id: instrument.id })}?public_key=${encodeURIComponent(context.account.publicKey)}`,
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
 * naming the payment. For a `.30` test amount on the error-testing channel the capture is part
 * of the instrument step, as that procedure states: the instrument fails with it
 * (`payment.error`, then `instrument.invalid` with the payment's code). Otherwise the
 * authorization stays open, so the capture can be retried with `payments.create` or the
 * authorization reversed; so does it when the processor confirms the capture later, whatever its
 * answer.
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
    const isDecline = error instanceof LifecycleError && error.code === 'declined'
    if (isDecline && testsPaymentByAmount(charge)) {
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
  decline: LifecycleError,
): Promise<void> {
  const invalid = revise(context, await mustGet(context, 'instrument', instrument.id), {
    status: 'invalid',
    success: false,
    failure_code: decline.failureCode ?? null,
    failure_description: decline.failureDescription ?? null,
    ...processorMessage(decline.processorMessage),
  })
  await context.deps.store.putObject(context.account.id, 'instrument', invalid)
  await context.deps.recordEvent(context.account.id, 'instrument.invalid', invalid.id, {
    charge,
    instrument: invalid,
  })
}

/**
 * `instruments.invalidate`: the merchant invalidates the instrument, so no payment can be
 * created from it any more (a recurring token is revoked this way).
 *
 * - Authorized with nothing captured: its authorization is reversed first, so the customer's
 *   funds are released — `reversal.success` then `instrument.invalid`. A reversal the processor
 *   confirms later invalidates the instrument when it succeeds; a declined one answers its 402
 *   and the instrument stays authorized (the hold is still there).
 * - Authorized with payments (captured, or a capture under way), or pending (a 3DS challenge
 *   or the processor's answer not yet in): nothing is left to void, it becomes `invalid` at once
 *   with `instrument.invalid`; its payments stay refundable.
 * - Already invalid, or a reversal already under way: nothing changes, no event — deleting twice
 *   is as good as once.
 */
export async function invalidateInstrument(
  context: StepContext,
  instrumentId: string,
): Promise<void> {
  const { deps, account } = context
  await withObjectLocked(context, 'instrument', instrumentId, async (instrument) => {
    if (instrument.status === 'invalid') return
    if (instrument.status === 'authorized') {
      const reversals = await allOf(context, 'reversal', { instrument: instrument.id })
      if (reversals.some((reversal) => reversal.status === 'pending')) return
      const payments = await allOf(context, 'payment', { instrument: instrument.id })
      if (!payments.some(inProgress)) {
        await reverse(context, instrument)
        return
      }
    }
    const charge = await mustGet(context, 'charge', instrument.charge.id)
    const invalid = revise(context, instrument, {
      status: 'invalid',
      success: false,
      redirect: null,
    })
    await deps.store.deleteChallenge(instrument.id)
    await deps.store.putObject(account.id, 'instrument', invalid)
    await deps.recordEvent(account.id, 'instrument.invalid', invalid.id, {
      charge,
      instrument: invalid,
    })
  })
}
