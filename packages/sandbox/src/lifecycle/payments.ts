// Payments: captures of an authorized instrument, through the processor (see `movement.ts`).

import type { Charge, CreatePaymentRequest } from '@chargekit/schemas'
import { newId } from '../ids'
import type { Money } from '../processors/processor'
import type { InstrumentRecord, PaymentRecord } from '../storage/records'
import { callProcessor, processorOf, revise, type StepContext } from './context'
import { invalidField } from './lifecycle-error'
import { requestedMoney, sumMinor, toAmount } from './money'
import { finishMovement, type Movement } from './movement'
import {
  allOf,
  chargeReferenceOf,
  mustGet,
  transactionExternalIds,
  withLastPayment,
  withObjectLocked,
} from './objects'
import { assertCapturable } from './transitions'

/** `payments.create`: capture an amount of an authorized instrument. */
export async function createPayment(
  context: StepContext,
  input: CreatePaymentRequest,
): Promise<PaymentRecord> {
  return withObjectLocked(context, 'instrument', input.instrument, async (instrument) => {
    const charge = await mustGet(context, 'charge', instrument.charge.id)
    if (input.currency !== instrument.currency) {
      throw invalidField(
        'currency',
        `Expected ${instrument.currency}, the currency of instrument ${instrument.id}`,
      )
    }
    const amount = requestedMoney(context, input.amount, input.currency)
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
 * the transition. Used by `payments.create` and by capture on creation.
 */
export async function capture(
  context: StepContext,
  charge: Charge,
  instrument: InstrumentRecord,
  amount: Money,
  details: { description: string; metadata: Record<string, unknown> },
): Promise<PaymentRecord> {
  const { processor, processorContext } = processorOf(context, charge)
  const paymentId = newId('pa')
  const outcome = await callProcessor(
    context.deps,
    processor.name,
    'capture',
    () => processor.capture(processorContext, { paymentId, instrument, amount }),
    'later',
  )
  const now = context.deps.now().toISOString()
  const payment: PaymentRecord = Object.freeze({
    id: paymentId,
    amount: amount.amount,
    currency: amount.currency,
    description: details.description,
    success: false,
    failure_description: null,
    metadata: Object.freeze({ ...details.metadata }),
    params: null,
    external_ids: transactionExternalIds(processor),
    request_log: context.requestLog,
    created_at: now,
    updated_at: now,
    charge: chargeReferenceOf(charge),
    instrument: Object.freeze({ id: instrument.id }),
    refunds: [],
    status: 'pending',
    failure_code: null,
    refunded_amount: 0,
    settled_at: null,
  })
  return finishMovement(context, paymentMovement, payment, outcome)
}

/** A successful payment adds its amount to the instrument's `captured_amount`. */
export const paymentMovement: Movement<'payment'> = {
  kind: 'payment',
  step: 'capture',
  parents: async (context, payment) => ({
    charge: await mustGet(context, 'charge', payment.charge.id),
    instrument: await mustGet(context, 'instrument', payment.instrument.id),
  }),
  show: (context, payment, parents) => ({
    ...parents,
    instrument: withLastPayment(context, parents.instrument, payment),
  }),
  async succeed(context, payment, parents) {
    const { instrument } = parents
    const earlier = await allOf(context, 'payment', {
      instrument: instrument.id,
      status: 'success',
    })
    const succeeded = [...earlier.filter((other) => other.id !== payment.id), payment]
    const currency = instrument.currency ?? payment.currency
    const captured = toAmount(sumMinor(succeeded, currency), currency)
    return { ...parents, instrument: revise(context, instrument, { captured_amount: captured }) }
  },
  settles: (payment) => ({ payments: [payment.id] }),
}
