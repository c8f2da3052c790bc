// The customer's side of an authorization waiting for them (a 3-D Secure page, an app
// notification, a payment reference): finding the challenge a page link carries, and the
// customer's answer to it, which ends like every authorization in `finishAuthorization`.

import { timingSafeEqual } from 'node:crypto'
import type { Charge } from '@chargekit/schemas'
import {
  expandPath,
  testHelpersApproveInstrument,
  testHelpersPayReference,
} from '@chargekit/schemas/operations'
import type { FinalOutcome } from '../processors/outcome'
import type { ChallengeRecord, InstrumentRecord } from '../storage/records'
import { callProcessor, type LifecycleDeps, processorOf, type StepContext } from './context'
import { finishAuthorization } from './instruments'
import { conflict, LifecycleError } from './lifecycle-error'
import { mustGet, withObjectLocked } from './objects'

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
      if (!(error instanceof LifecycleError)) throw error
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
