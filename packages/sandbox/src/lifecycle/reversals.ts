// Reversals: voiding an authorized, uncaptured instrument, so the customer's funds are released
// without a payment ever being made.

import type { CreateReversalRequest, Reversal } from '@chargekit/schemas'
import { newId } from '../ids'
import type { InstrumentRecord } from '../storage/records'
import { callProcessor, processorOf, revise, type StepContext } from './context'
import { money, requestedMoney } from './money'
import { finishMovement, type Movement } from './movement'
import { mustGet, transactionExternalIds, withObjectLocked } from './objects'
import { assertReversible } from './transitions'

/**
 * `instruments.reverse`: void an authorized, uncaptured instrument in full.
 * `reversal.pending`? → `reversal.success` (then the instrument is invalid:
 * `instrument.invalid`) | `reversal.error` (the instrument stays authorized).
 */
export async function reverseInstrument(
  context: StepContext,
  instrumentId: string,
  input: CreateReversalRequest,
): Promise<Reversal> {
  return withObjectLocked(context, 'instrument', instrumentId, async (instrument) => {
    const currency = instrument.currency
    const requested =
      input.amount === undefined ? undefined : requestedMoney(context, input.amount, currency)
    await assertReversible(context, instrument, requested?.minorUnits)
    return reverse(context, instrument)
  })
}

/**
 * The reversal itself, once it is known to be legal; the caller holds the charge's lock (the
 * reversal route, and the merchant's invalidation of an uncaptured instrument).
 */
export async function reverse(
  context: StepContext,
  instrument: InstrumentRecord,
): Promise<Reversal> {
  const currency = instrument.currency
  const charge = await mustGet(context, 'charge', instrument.charge.id)
  const { processor, processorContext } = processorOf(context, charge)
  const amount = money(instrument.amount ?? charge.amount, currency)
  const reversalId = newId('rv')
  const outcome = await callProcessor(
    context.deps,
    processor.name,
    'reverse',
    () => processor.reverse(processorContext, { reversalId, instrument, amount }),
    'later',
  )
  const reversal: Reversal = Object.freeze({
    id: reversalId,
    charge: charge.id,
    instrument: instrument.id,
    amount: amount.amount,
    currency,
    success: false,
    status: 'pending',
    failure_code: null,
    failure_description: null,
    external_ids: transactionExternalIds(processor),
    request_log: context.requestLog,
    created_at: context.deps.now().toISOString(),
  })
  return finishMovement(context, reversalMovement, reversal, outcome)
}

/** A successful reversal voids the instrument. */
export const reversalMovement: Movement<'reversal'> = {
  kind: 'reversal',
  step: 'reverse',
  parents: async (context, reversal) => ({
    charge: await mustGet(context, 'charge', reversal.charge),
    instrument: await mustGet(context, 'instrument', reversal.instrument),
  }),
  show: (_context, _reversal, parents) => parents,
  succeed: async (context, _reversal, parents) => ({
    ...parents,
    instrument: revise(context, parents.instrument, { status: 'invalid', success: false }),
  }),
  async afterSuccess(context, _reversal, { charge, instrument }) {
    // `instrument.invalid` also means "invalidated by the merchant", which a reversal is.
    await context.deps.recordEvent(context.account.id, 'instrument.invalid', instrument.id, {
      charge,
      instrument,
    })
  },
}
