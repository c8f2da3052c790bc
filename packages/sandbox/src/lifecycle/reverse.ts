import type { CreateReversalRequest, Instrument, Reversal } from '@chargekit/schemas'
import { declined, notFound } from '../api-problem'
import { newId } from '../ids'
import type { Outcome } from '../processors/processor'
import { processorOf, revise, type StepContext, withChargeLock } from './context'
import { transactionExternalIds } from './external-ids'
import { money, requestedMoney } from './money'
import { mustGet } from './objects'
import { applyLater } from './pending'
import { callProcessor, failureOf } from './processor-call'
import { assertReversible } from './transitions'

/**
 * POST /v2/instruments/{id}/reversal (and DELETE /v2/instruments/{id}): void an authorized,
 * uncaptured instrument in full. `reversal.pending`? → `reversal.success` (then the instrument
 * is invalid: `instrument.invalid`) | `reversal.error` (the instrument stays authorized).
 */
export async function reverseInstrument(
  context: StepContext,
  instrumentId: string,
  input: CreateReversalRequest,
): Promise<Reversal> {
  const found = await context.deps.store.getObject(context.account.id, 'instrument', instrumentId)
  if (found?.charge === undefined) throw notFound('instrument', instrumentId)
  return withChargeLock(context, found.charge, async () => {
    const instrument = await mustGet(context, 'instrument', instrumentId)
    const currency = instrument.currency ?? ''
    const requested =
      input.amount === undefined ? undefined : requestedMoney(input.amount, currency)
    await assertReversible(context, instrument, requested?.minorUnits)
    const charge = await mustGet(context, 'charge', instrument.charge ?? '')
    const { processor, processorContext } = processorOf(context, charge)
    const amount = money(instrument.amount ?? charge.amount, currency)
    const reversalId = newId('rv')
    const outcome = await callProcessor(
      context.deps,
      processor.name,
      'reverse',
      () => processor.reverse(processorContext, { reversalId, instrument, amount }),
      { customerAction: false },
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
      external_ids: transactionExternalIds(processor, outcome.transactionId),
      request_log: context.requestLog,
      created_at: context.deps.now().toISOString(),
    })
    return finishReversal(context, reversal, outcome)
  })
}

async function finishReversal(
  context: StepContext,
  reversal: Reversal,
  outcome: Outcome,
): Promise<Reversal> {
  const { deps, account } = context
  const charge = await mustGet(context, 'charge', reversal.charge)
  const instrument = await mustGet(context, 'instrument', reversal.instrument)
  if (outcome.status === 'pending') {
    await deps.store.putObject(account.id, 'reversal', reversal)
    await deps.recordEvent(account.id, 'reversal.pending', reversal.id, {
      charge,
      instrument,
      reversal,
    })
    if (outcome.awaiting === 'processor') {
      const { processor } = processorOf(context, charge)
      applyLater(context, charge.id, processor.name, 'reverse', outcome, (final) =>
        finishReversal(context, reversal, final),
      )
    }
    return reversal
  }
  if (outcome.status === 'failed') {
    const { code, description } = failureOf(outcome)
    const failed: Reversal = Object.freeze({
      ...reversal,
      status: 'failed',
      failure_code: code,
      failure_description: description,
    })
    await deps.store.putObject(account.id, 'reversal', failed)
    await deps.recordEvent(account.id, 'reversal.error', failed.id, {
      charge,
      instrument,
      reversal: failed,
    })
    throw declined(code, description, {
      charge: charge.id,
      instrument: instrument.id,
      reversal: failed.id,
    })
  }
  const succeeded: Reversal = Object.freeze({ ...reversal, status: 'succeeded', success: true })
  await deps.store.putObject(account.id, 'reversal', succeeded)
  const voided: Instrument = revise(context, instrument, { status: 'invalid', success: false })
  await deps.store.putObject(account.id, 'instrument', voided)
  await deps.recordEvent(account.id, 'reversal.success', succeeded.id, {
    charge,
    instrument: voided,
    reversal: succeeded,
  })
  // SPEC: instrument.invalid also means "invalidated by the merchant", which a reversal is.
  await deps.recordEvent(account.id, 'instrument.invalid', voided.id, {
    charge,
    instrument: voided,
  })
  return succeeded
}
