// Refunds: giving back part or all of a successful payment, through the processor.

import type { CreateRefundRequest } from '@chargekit/schemas'
import { newId } from '../ids'
import type { PaymentRecord, RefundRecord } from '../storage/records'
import { callProcessor, chargeTypeOf, processorOf, revise, type StepContext } from './context'
import { conflict } from './lifecycle-error'
import { requestedMoney, sumMinor, toAmount } from './money'
import { finishMovement, type Movement, type MovementParents } from './movement'
import { allOf, mustGet, transactionExternalIds, withObjectLocked, withRefund } from './objects'
import { assertRefundable } from './transitions'

/**
 * `payments.refund`: `refund.pending`? → `refund.success` | `refund.error`.
 * Partial refunds are allowed; together they never exceed the captured amount.
 */
export async function createRefund(
  context: StepContext,
  paymentId: string,
  input: CreateRefundRequest,
): Promise<RefundRecord> {
  return withObjectLocked(context, 'payment', paymentId, async (payment) => {
    const amount = requestedMoney(context, input.amount, payment.currency)
    const charge = await mustGet(context, 'charge', payment.charge.id)
    const chargeType = chargeTypeOf(context, charge)
    if (chargeType.refundable === false) {
      throw conflict(
        '05.04.0000',
        `${chargeType.label} payments cannot be refunded through the API (payment ${payment.id}): return the money to the customer another way, such as a bank transfer`,
      )
    }
    await assertRefundable(context, payment, amount.minorUnits)
    const { processor, processorContext } = processorOf(context, charge)
    const refundId = newId('re')
    const outcome = await callProcessor(
      context.deps,
      processor.name,
      'refund',
      () => processor.refund(processorContext, { refundId, payment, amount }),
      'later',
    )
    const refund: RefundRecord = Object.freeze({
      id: refundId,
      amount: amount.amount,
      description: input.description ?? '',
      success: false,
      failure_description: null,
      external_ids: transactionExternalIds(processor),
      request_log: context.requestLog,
      created_at: context.deps.now().toISOString(),
      payment: payment.id,
      charge: charge.id,
      currency: payment.currency,
      status: 'pending',
      failure_code: null,
      settled_at: null,
    })
    return finishMovement(context, refundMovement, refund, outcome)
  })
}

/** A successful refund adds its amount to the payment's `refunded_amount`. */
export const refundMovement: Movement<'refund', MovementParents & { payment: PaymentRecord }> = {
  kind: 'refund',
  step: 'refund',
  async parents(context, refund) {
    const payment = await mustGet(context, 'payment', refund.payment)
    return {
      charge: await mustGet(context, 'charge', refund.charge),
      instrument: await mustGet(context, 'instrument', payment.instrument.id),
      payment,
    }
  },
  show: (context, refund, parents) => ({
    ...parents,
    payment: withRefund(context, parents.payment, refund),
  }),
  async succeed(context, refund, parents) {
    const { payment } = parents
    const earlier = await allOf(context, 'refund', { payment: payment.id, status: 'success' })
    const succeeded = [...earlier.filter((other) => other.id !== refund.id), refund]
    const refunded = toAmount(sumMinor(succeeded, payment.currency), payment.currency)
    return { ...parents, payment: revise(context, payment, { refunded_amount: refunded }) }
  },
  settles: (refund) => ({ refunds: [refund.id] }),
}
