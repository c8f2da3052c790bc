import type { Charge, ChargeReference } from '@chargekit/schemas'
import type { InstrumentRecord, PaymentRecord, RefundRecord } from '../storage/records'
import { revise, type StepContext } from './context'

/**
 * How a resource shows the objects related to it: the charge it derives from, an instrument's
 * latest payment, a payment's refunds. Kept on the stored snapshots (not computed when
 * answering), so every event shows them as they stood when it happened.
 */

export function chargeReferenceOf(charge: Charge): ChargeReference {
  return Object.freeze({
    id: charge.id,
    charge_type: charge.charge_type,
    charge_type_label: charge.charge_type_label,
  })
}

/** The instrument once `payment` was created from it: its last payment, and used for good. */
export function withLastPayment(
  context: StepContext,
  instrument: InstrumentRecord,
  payment: PaymentRecord,
): InstrumentRecord {
  return revise(context, instrument, {
    last_payment: Object.freeze({
      id: payment.id,
      success: payment.success,
      status: payment.status ?? 'pending',
    }),
    used: true,
  })
}

/** The payment listing `refund` as it now stands (added at the end, or replaced in place). */
export function withRefund(
  context: StepContext,
  payment: PaymentRecord,
  refund: RefundRecord,
): PaymentRecord {
  const entry = Object.freeze({ id: refund.id, amount: refund.amount, success: refund.success })
  const refunds = payment.refunds ?? []
  const known = refunds.some((other) => other.id === refund.id)
  return revise(context, payment, {
    refunds: known
      ? refunds.map((other) => (other.id === refund.id ? entry : other))
      : [...refunds, entry],
  })
}
