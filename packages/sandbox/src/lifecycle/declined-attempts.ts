import type { Charge } from '@chargekit/schemas'
import { declined, designationOf } from '../api-problem'
import type { InstrumentRecord } from '../storage/records'
import { revise, type StepContext } from './context'

export const tooManyTriesCode = '02.01.0000'

/** Declined by the processor (or the sandbox); an instrument the merchant invalidated has no code. */
const isDeclined = (instrument: InstrumentRecord) =>
  instrument.status === 'invalid' && instrument.failure_code !== null

/**
 * Card-testing defence. Instruments are created with the public key, from the internet, so a
 * fraudster can try stolen card numbers on one checkout until one works. A charge therefore takes
 * at most `maxDeclinedInstruments` declined cards: the next attempt fails the charge with
 * 02.01.0000 Too Many Tries (`charge.error`, 402), and every later one answers that failure, so
 * the customer starts again with a new charge, which the merchant's server creates and can refuse.
 */
export async function assertTriesLeft(
  context: StepContext,
  charge: Charge,
  instruments: readonly InstrumentRecord[],
): Promise<void> {
  const { deps, account } = context
  const declinedCount = instruments.filter(isDeclined).length
  if (declinedCount < deps.maxDeclinedInstruments) return
  const description = designationOf(tooManyTriesCode)
  const failed = revise(context, charge, {
    failure_code: tooManyTriesCode,
    failure_description: description,
  })
  await deps.store.putObject(account.id, 'charge', failed)
  await deps.recordEvent(account.id, 'charge.error', failed.id, { charge: failed })
  throw declined(
    tooManyTriesCode,
    description,
    { charge: charge.id },
    `Charge ${charge.id} was declined ${declinedCount} times, the most one charge takes: start the payment again with a new charge`,
  )
}
