import { timingSafeEqual } from 'node:crypto'
import type { Charge, Instrument } from '@chargekit/schemas'
import { ApiProblem } from '../api-problem'
import type { FinalOutcome } from '../processors/processor'
import type { ChallengeRecord } from '../storage/records'
import { finishAuthorization } from './authorization'
import { type LifecycleDeps, processorOf, type StepContext } from './context'
import { mustGet, withObjectLocked } from './objects'
import { callProcessor } from './processor-call'

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

export interface ChallengeResult {
  charge: Charge
  instrument: Instrument
}

/**
 * The customer's answer on the 3DS page: the processor decides (`completeChallenge`, by default
 * approved → authorized, refused → 06.01.0000 3DS Error) and the instrument leaves `pending`
 * like any authorization, capturing at once when the charge says so. The challenge is used up.
 */
export async function completeChallenge(
  context: StepContext,
  challenge: ChallengeRecord,
  approved: boolean,
  origin: string,
): Promise<ChallengeResult> {
  const { deps } = context
  return withObjectLocked(context, 'instrument', challenge.instrumentId, async (instrument) => {
    const charge = await mustGet(context, 'charge', instrument.charge?.id ?? '')
    await deps.store.deleteChallenge(instrument.id)
    if (instrument.status !== 'pending') return { charge, instrument }
    const { processor, processorContext } = processorOf(context, charge)
    const decide = processor.completeChallenge
    const outcome: FinalOutcome =
      decide === undefined
        ? defaultChallengeOutcome(approved)
        : await callProcessor(
            deps,
            processor.name,
            'completeChallenge',
            () => decide(processorContext, { instrument, approved }),
            'final',
          )
    try {
      await finishAuthorization(context, instrument.id, outcome, origin)
    } catch (error) {
      // A decline is the customer's result page, not an error of this request.
      if (!(error instanceof ApiProblem)) throw error
    }
    return { charge, instrument: await mustGet(context, 'instrument', instrument.id) }
  })
}

function defaultChallengeOutcome(approved: boolean): FinalOutcome {
  return approved ? { status: 'succeeded' } : { status: 'failed', code: '06.01.0000' }
}
