// Instruments: what the customer pays with, from creation through the processor's authorization
// and the customer's own answer (3DS, app, reference) to the merchant's invalidation. One file
// because every step here ends the same way: in `finishAuthorization`.

import { randomBytes, timingSafeEqual } from 'node:crypto'
import {
  type CardParams,
  type Charge,
  cardDetailsSchema,
  createInstrumentRequestSchema,
  type EventType,
} from '@chargekit/schemas'
import {
  expandPath,
  instrumentsRedirect,
  testHelpersApproveInstrument,
  testHelpersPayReference,
} from '@chargekit/schemas/operations'
import { instrumentRequestSchema } from '../accounts/charge-types'
import { ApiProblem, conflict, declined } from '../api-problem'
import { toCardInput } from '../card/card-params'
import { validateBody } from '../http/validate'
import { newId } from '../ids'
import { isErrorTestingChannel } from '../processors/no-processor'
import type { AuthorizeRequest, FinalOutcome, Outcome, Processor } from '../processors/processor'
import type { ChallengeRecord, InstrumentRecord } from '../storage/records'
import {
  atomically,
  callProcessor,
  chargeTypeOf,
  failureOf,
  type LifecycleDeps,
  processorMessage,
  processorOf,
  revise,
  type StepContext,
} from './context'
import { answerLater, type LaterWork } from './later-work'
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
 * `instruments.create`: what the customer gave for a confirmed charge, validated by the schema
 * of the charge's type (a card, a phone number, nothing for a reference). `instrument.created`,
 * then the processor authorizes (see `finishAuthorization`). The charge type may decline by
 * itself first: an expired card is refused with 03.00.0002, whatever the processor.
 */
export async function createInstrument(
  context: StepContext,
  body: unknown,
  origin: string,
): Promise<InstrumentRecord> {
  const { deps, account } = context
  const chargeId = chargeNamedBy(body)
  return withObjectLocked(context, 'charge', chargeId, async (charge) => {
    const chargeType = chargeTypeOf(context, charge)
    const { charge: _charge, ...details } = validateBody(instrumentRequestSchema(chargeType), body)
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
 * The charge the body names. The other fields are judged by that charge's type once it is
 * found, so a charge that does not exist is a 404 whatever they are: an MB WAY request with a
 * mistyped charge id is told so, not that a card is missing. A body naming no charge has no type
 * to be judged by, and is judged as the card request the service documents.
 */
function chargeNamedBy(body: unknown): string {
  const named = (body as { charge?: unknown } | null | undefined)?.charge
  if (typeof named === 'string' && named !== '') return named
  return validateBody(createInstrumentRequestSchema, body).charge
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
 * naming the payment. On the error-testing channel the capture is part of the instrument step,
 * as that procedure states: the instrument fails with it (`payment.error`, then
 * `instrument.invalid` with the payment's code). Elsewhere the authorization stays open, so the
 * capture can be retried with `payments.create` or the authorization reversed; so does it when
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

/** The pending challenge of an instrument, if `token` is its token (compared in constant time). */
export async function findChallenge(
  deps: LifecycleDeps,
  instrumentId: string,
  token: string,
): Promise<ChallengeRecord | undefined> {
  const challenge = await deps.store.getChallenge(instrumentId)
  if (challenge === undefined) return undefined
  const expected = Buffer.from(challenge.token)
  const given = Buffer.from(token)
  return expected.length === given.length && timingSafeEqual(expected, given)
    ? challenge
    : undefined
}

/**
 * What the customer does with an authorization waiting for them: approve or decline it (an
 * approval page, an app notification), pay its reference, or let its deadline pass (`expire`).
 */
export type CustomerAnswer = 'approve' | 'decline' | 'pay' | 'expire'

export interface CustomerAnswerResult {
  charge: Charge
  instrument: InstrumentRecord
}

/**
 * Applies the customer's answer: the processor decides (`completeChallenge`, by default approved
 * → authorized, refused → 06.01.0000 3DS Error), an expiry declines with 03.00.0002 Instrument
 * Expired, and the instrument leaves `pending` like any authorization, capturing at once when
 * the charge says so. The challenge is used up. With `strict`, an instrument that is not waiting
 * for this answer is a 409 (a test helper); otherwise it is left as it is (a page reloaded after
 * the answer, a deadline that passed after it).
 */
export async function answerAsCustomer(
  context: StepContext,
  instrumentId: string,
  answer: CustomerAnswer,
  options: { origin: string; strict: boolean },
): Promise<CustomerAnswerResult> {
  const { deps } = context
  return withObjectLocked(context, 'instrument', instrumentId, async (instrument) => {
    const charge = await mustGet(context, 'charge', instrument.charge.id)
    const challenge = await deps.store.getChallenge(instrument.id)
    const problem =
      instrument.status !== 'pending' || challenge === undefined
        ? `Instrument ${instrument.id} is not waiting for the customer (status ${instrument.status})`
        : unfitAnswer(challenge, answer)
    if (problem !== undefined) {
      // 05.04.0001: the instrument's status does not allow the request.
      if (options.strict) throw conflict('05.04.0001', problem)
      return { charge, instrument }
    }
    await deps.store.deleteChallenge(instrument.id)
    const outcome =
      answer === 'expire'
        ? ({ status: 'failed', code: '03.00.0002' } as const)
        : await processorAnswer(context, charge, instrument, answer !== 'decline')
    try {
      await finishAuthorization(context, instrument.id, outcome, options.origin)
    } catch (error) {
      // A decline is the customer's result, not an error of this request.
      if (!(error instanceof ApiProblem)) throw error
    }
    return { charge, instrument: await mustGet(context, 'instrument', instrument.id) }
  })
}

/** A reference is paid, not approved; a page or an app notification is approved, not paid. */
function unfitAnswer(challenge: ChallengeRecord, answer: CustomerAnswer): string | undefined {
  if (answer === 'expire') return undefined
  const isReference = challenge.action === 'reference'
  if (isReference && answer !== 'pay') {
    return `Instrument ${challenge.instrumentId} waits for its payment reference to be paid: use pay (POST ${expandPath(testHelpersPayReference.path, { instrumentId: challenge.instrumentId })}), or expire`
  }
  if (!isReference && answer === 'pay') {
    return `Instrument ${challenge.instrumentId} has no payment reference to pay: the customer approves or declines it (POST ${expandPath(testHelpersApproveInstrument.path, { instrumentId: challenge.instrumentId })} or /decline)`
  }
  return undefined
}

async function processorAnswer(
  context: StepContext,
  charge: Charge,
  instrument: InstrumentRecord,
  approved: boolean,
): Promise<FinalOutcome> {
  const { processor, processorContext } = processorOf(context, charge)
  const decide = processor.completeChallenge
  if (decide === undefined) {
    return approved ? { status: 'succeeded' } : { status: 'failed', code: '06.01.0000' }
  }
  return callProcessor(
    context.deps,
    processor.name,
    'completeChallenge',
    () => decide(processorContext, { instrument, approved }),
    'final',
  )
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
