import type { CreateRefundRequest, Payment, Refund } from '@chargekit/schemas'
import { declined, notFound } from '../api-problem'
import { newId } from '../ids'
import type { Outcome } from '../processors/processor'
import { processorOf, revise, type StepContext, withChargeLock } from './context'
import { transactionExternalIds } from './external-ids'
import { requestedMoney, sumMinor, toAmount } from './money'
import { allOf, mustGet } from './objects'
import { applyLater } from './pending'
import { callProcessor, failureOf } from './processor-call'
import { scheduleAutoSettlement } from './settle'
import { assertRefundable } from './transitions'

/**
 * POST /v2/payments/{id}/refund: `refund.pending`? → `refund.success` | `refund.error`.
 * Partial refunds are allowed; together they never exceed the captured amount.
 */
export async function createRefund(
  context: StepContext,
  paymentId: string,
  input: CreateRefundRequest,
): Promise<Refund> {
  const found = await context.deps.store.getObject(context.account.id, 'payment', paymentId)
  if (found?.charge === undefined) throw notFound('payment', paymentId)
  return withChargeLock(context, found.charge, async () => {
    const payment = await mustGet(context, 'payment', paymentId)
    const amount = requestedMoney(input.amount, payment.currency)
    await assertRefundable(context, payment, amount.minorUnits)
    const charge = await mustGet(context, 'charge', payment.charge ?? '')
    const { processor, processorContext } = processorOf(context, charge)
    const refundId = newId('re')
    const outcome = await callProcessor(
      context.deps,
      processor.name,
      'refund',
      () => processor.refund(processorContext, { refundId, payment, amount }),
      { customerAction: false },
    )
    const refund: Refund = Object.freeze({
      id: refundId,
      amount: amount.amount,
      description: input.description ?? '',
      success: false,
      failure_description: null,
      external_ids: transactionExternalIds(processor, outcome.transactionId),
      request_log: context.requestLog,
      created_at: context.deps.now().toISOString(),
      payment: payment.id,
      charge: charge.id,
      currency: payment.currency,
      status: 'pending',
      failure_code: null,
      settled_at: null,
    })
    return finishRefund(context, refund, outcome)
  })
}

async function finishRefund(context: StepContext, refund: Refund, outcome: Outcome) {
  const { deps, account } = context
  const charge = await mustGet(context, 'charge', refund.charge ?? '')
  const payment = await mustGet(context, 'payment', refund.payment ?? '')
  const instrument = await mustGet(context, 'instrument', payment.instrument ?? '')
  if (outcome.status === 'pending') {
    await deps.store.putObject(account.id, 'refund', refund)
    await deps.recordEvent(account.id, 'refund.pending', refund.id, {
      charge,
      instrument,
      payment,
      refund,
    })
    if (outcome.awaiting === 'processor') {
      const { processor } = processorOf(context, charge)
      applyLater(context, charge.id, processor.name, 'refund', outcome, (final) =>
        finishRefund(context, refund, final),
      )
    }
    return refund
  }
  if (outcome.status === 'failed') {
    const { code, description } = failureOf(outcome)
    const failed: Refund = Object.freeze({
      ...refund,
      status: 'failed',
      failure_code: code,
      failure_description: description,
    })
    await deps.store.putObject(account.id, 'refund', failed)
    await deps.recordEvent(account.id, 'refund.error', failed.id, {
      charge,
      instrument,
      payment,
      refund: failed,
    })
    throw declined(code, description, {
      charge: charge.id,
      instrument: instrument.id,
      payment: payment.id,
      refund: failed.id,
    })
  }
  const succeeded: Refund = Object.freeze({ ...refund, status: 'succeeded', success: true })
  await deps.store.putObject(account.id, 'refund', succeeded)
  const refunds = await allOf(context, 'refund', { payment: payment.id, status: 'succeeded' })
  const refunded = refundedPayment(context, payment, sumMinor(refunds, payment.currency))
  await deps.store.putObject(account.id, 'payment', refunded)
  await deps.recordEvent(account.id, 'refund.success', succeeded.id, {
    charge,
    instrument,
    payment: refunded,
    refund: succeeded,
  })
  scheduleAutoSettlement(context, charge, { refunds: [succeeded.id] })
  return succeeded
}

function refundedPayment(context: StepContext, payment: Payment, refundedMinor: bigint): Payment {
  return revise(context, payment, { refunded_amount: toAmount(refundedMinor, payment.currency) })
}
