import type { Charge, CreatePaymentRequest, Instrument, Payment } from '@chargekit/schemas'
import { declined, invalidParameters, notFound } from '../api-problem'
import { newId } from '../ids'
import type { Money, Outcome } from '../processors/processor'
import { processorOf, revise, type StepContext, withChargeLock } from './context'
import { transactionExternalIds } from './external-ids'
import { money, sumMinor, toAmount } from './money'
import { allOf, mustGet } from './objects'
import { applyLater } from './pending'
import { callProcessor, failureOf } from './processor-call'
import { scheduleAutoSettlement } from './settle'
import { assertCapturable } from './transitions'

/** POST /v2/payments: capture an amount of an authorized instrument. */
export async function createPayment(
  context: StepContext,
  input: CreatePaymentRequest,
): Promise<Payment> {
  const { store } = context.deps
  const found = await store.getObject(context.account.id, 'instrument', input.instrument)
  if (found?.charge === undefined) throw notFound('instrument', input.instrument)
  return withChargeLock(context, found.charge, async () => {
    const instrument = await mustGet(context, 'instrument', found.id)
    const charge = await mustGet(context, 'charge', found.charge ?? '')
    if (input.currency !== instrument.currency) {
      throw invalidParameters({
        currency: [`Expected ${instrument.currency}, the currency of instrument ${instrument.id}`],
      })
    }
    const amount = money(input.amount, input.currency)
    await assertCapturable(context, instrument, amount.minorUnits)
    return capture(context, charge, instrument, amount, {
      description: input.description ?? '',
      metadata: input.metadata ?? {},
    })
  })
}

/**
 * Creates a payment through the processor: `payment.pending` → later `payment.success` |
 * `payment.error`, or one of those at once. The caller holds the charge's lock and has checked
 * the transition. Used by POST /v2/payments and by capture on creation.
 */
export async function capture(
  context: StepContext,
  charge: Charge,
  instrument: Instrument,
  amount: Money,
  details: { description: string; metadata: Record<string, unknown> },
): Promise<Payment> {
  const { processor, processorContext } = processorOf(context, charge)
  const paymentId = newId('pa')
  const outcome = await callProcessor(
    context.deps,
    processor.name,
    'capture',
    () => processor.capture(processorContext, { paymentId, instrument, amount }),
    { customerAction: false },
  )
  const now = context.deps.now().toISOString()
  const payment: Payment = Object.freeze({
    id: paymentId,
    amount: amount.amount,
    currency: amount.currency,
    description: details.description,
    success: false,
    failure_description: null,
    metadata: Object.freeze({ ...details.metadata }),
    params: null,
    external_ids: transactionExternalIds(processor, outcome.transactionId),
    request_log: context.requestLog,
    created_at: now,
    updated_at: now,
    charge: charge.id,
    instrument: instrument.id,
    status: 'pending',
    failure_code: null,
    refunded_amount: 0,
    settled_at: null,
  })
  return finishCapture(context, payment, outcome)
}

async function finishCapture(
  context: StepContext,
  payment: Payment,
  outcome: Outcome,
): Promise<Payment> {
  const { deps, account } = context
  const charge = await mustGet(context, 'charge', payment.charge ?? '')
  const instrument = await mustGet(context, 'instrument', payment.instrument ?? '')
  if (outcome.status === 'pending') {
    await deps.store.putObject(account.id, 'payment', payment)
    await deps.recordEvent(account.id, 'payment.pending', payment.id, {
      charge,
      instrument,
      payment,
    })
    if (outcome.awaiting === 'processor') {
      const { processor } = processorOf(context, charge)
      applyLater(context, charge.id, processor.name, 'capture', outcome, (final) =>
        finishCapture(context, payment, final),
      )
    }
    return payment
  }
  if (outcome.status === 'failed') {
    const { code, description } = failureOf(outcome)
    const failed = revise(context, payment, {
      status: 'failed',
      failure_code: code,
      failure_description: description,
    })
    await deps.store.putObject(account.id, 'payment', failed)
    await deps.recordEvent(account.id, 'payment.error', failed.id, {
      charge,
      instrument,
      payment: failed,
    })
    throw declined(code, description, {
      charge: charge.id,
      instrument: instrument.id,
      payment: failed.id,
    })
  }
  const succeeded = revise(context, payment, { status: 'succeeded', success: true })
  await deps.store.putObject(account.id, 'payment', succeeded)
  const payments = await allOf(context, 'payment', {
    instrument: instrument.id,
    status: 'succeeded',
  })
  const currency = instrument.currency ?? succeeded.currency
  const captured = revise(context, instrument, {
    captured_amount: toAmount(sumMinor(payments, currency), currency),
  })
  await deps.store.putObject(account.id, 'instrument', captured)
  await deps.recordEvent(account.id, 'payment.success', succeeded.id, {
    charge,
    instrument: captured,
    payment: succeeded,
  })
  scheduleAutoSettlement(context, charge, { payments: [succeeded.id] })
  return succeeded
}
