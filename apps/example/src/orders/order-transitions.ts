import { toMinorUnits } from '@chargekit/schemas'
import {
  type Order,
  type OrderFailure,
  type OrderStatus,
  type PaymentStep,
  tooManyTries,
} from './order.js'

/**
 * The parts of a lifecycle event (full form, fetched by @chargekit/webhooks) that move an order.
 * Structural on purpose: every known event type of @chargekit/schemas fits it.
 */
export interface LifecycleEvent {
  id: string
  type: string
  object_id?: string | null | undefined
  charge?: (FailureFields & { id: string }) | null | undefined
  instrument?:
    | (FailureFields & {
        id: string
        captured_on_creation?: boolean | undefined
        params?:
          | { brand?: string | undefined; last_4_digits?: string | undefined }
          | null
          | undefined
      })
    | null
    | undefined
  payment?: (FailureFields & { id: string; amount: number; currency: string }) | null | undefined
  refund?: (FailureFields & { id: string; amount: number }) | null | undefined
  reversal?: (FailureFields & { id: string }) | null | undefined
}

interface FailureFields {
  failure_code?: string | null | undefined
  failure_description?: string | null | undefined
}

/** The columns an event changes; `null` when the event changes nothing (it is still logged). */
export type OrderChange = Partial<
  Pick<
    Order,
    | 'status'
    | 'instrumentId'
    | 'paymentId'
    | 'capturedMinor'
    | 'refundedMinor'
    | 'cardBrand'
    | 'cardLast4'
    | 'failure'
  >
>

const beforeAuthorization: readonly OrderStatus[] = ['awaiting_payment', 'processing']
const capturable: readonly OrderStatus[] = [...beforeAuthorization, 'authorized', 'payment_failed']
/** Funds held and not captured: what a capture or a reversal acts on. */
const holdingFunds: readonly OrderStatus[] = ['authorized', 'payment_failed']

/**
 * Decides what an event does to an order. Deliveries may arrive out of order and more than once
 * ([delivery](../../../../docs/service/delivery.md#ordering-and-duplicates)): each rule only moves the order forward from the statuses where the event makes
 * sense, so a late or repeated event never undoes a later state — nor clears the decline of a
 * later step (see `resolves`).
 */
export function orderChangeFor(order: Order, event: LifecycleEvent): OrderChange | null {
  const { instrument, payment, refund, reversal } = event
  switch (event.type) {
    case 'instrument.pending':
      if (!instrument || order.status !== 'awaiting_payment') return null
      return { status: 'processing', instrumentId: instrument.id, ...cardOf(instrument) }
    case 'instrument.authorized': {
      if (!instrument || !beforeAuthorization.includes(order.status)) return null
      // The service's advice: an authorized instrument completes the transaction. When it is not
      // captured on creation, the funds are only held until the shop captures or cancels.
      const status = instrument.captured_on_creation === false ? 'authorized' : 'paid'
      return {
        status,
        instrumentId: instrument.id,
        ...cardOf(instrument),
        ...resolves(order, ['charge', 'instrument']),
      }
    }
    case 'instrument.invalid':
      // A declined card (or a failed 3-D Secure) lets the customer try another card.
      if (!instrument || !beforeAuthorization.includes(order.status)) return null
      return { status: 'awaiting_payment', failure: failureOf('instrument', instrument) }
    case 'payment.success': {
      if (!payment || order.paymentId !== null) return null
      const captured = { paymentId: payment.id, capturedMinor: minor(payment) }
      if (order.status === 'paid') return captured
      if (!capturable.includes(order.status)) return null
      return {
        ...captured,
        status: 'paid',
        ...resolves(order, ['charge', 'instrument', 'payment']),
      }
    }
    case 'payment.error': {
      if (!payment || order.paymentId !== null) return null
      const failure = failureOf('payment', payment)
      // A declined capture leaves the authorization open: capture again or cancel.
      if (holdingFunds.includes(order.status)) return { failure }
      if (order.status !== 'paid' && !beforeAuthorization.includes(order.status)) return null
      // Paid on instrument.authorized, or this event overtook it: a capture needs an
      // authorization, so the event's instrument is the open one.
      const held = order.status === 'paid' || instrument?.captured_on_creation !== false
      return {
        status: held ? 'payment_failed' : 'authorized',
        ...(instrument ? { instrumentId: instrument.id, ...cardOf(instrument) } : {}),
        failure,
      }
    }
    case 'refund.success': {
      if (!refund || (order.status !== 'paid' && order.status !== 'partially_refunded')) return null
      const refundedMinor = order.refundedMinor + toMinorUnits(refund.amount, order.currency)
      const status = refundedMinor >= order.capturedMinor ? 'refunded' : 'partially_refunded'
      return { status, refundedMinor, ...resolves(order, ['refund']) }
    }
    case 'refund.error':
      return refund ? { failure: failureOf('refund', refund) } : null
    case 'reversal.success':
      return holdingFunds.includes(order.status) ? { status: 'cancelled', failure: null } : null
    case 'reversal.error':
      return reversal ? { failure: failureOf('reversal', reversal) } : null
    case 'charge.error': {
      if (!event.charge || order.status !== 'awaiting_payment') return null
      const failure = failureOf('charge', event.charge)
      // Stopped after too many declined cards: the shop gives the order a new charge, so the
      // order itself has not failed.
      if (failure.code === tooManyTries) return { failure }
      return { status: 'failed', failure }
    }
    default:
      return null
  }
}

/**
 * Clears the order's decline when it came from one of `steps`, which this event shows went
 * through. A decline of another step stays: e.g. a payment.success delivered after the refund of
 * that payment was declined must not hide the refund's decline.
 */
function resolves(order: Order, steps: readonly PaymentStep[]): Pick<OrderChange, 'failure'> {
  return order.failure && steps.includes(order.failure.step) ? { failure: null } : {}
}

function minor(payment: { amount: number; currency: string }): bigint {
  return toMinorUnits(payment.amount, payment.currency)
}

function cardOf(instrument: NonNullable<LifecycleEvent['instrument']>) {
  return {
    cardBrand: instrument.params?.brand ?? null,
    cardLast4: instrument.params?.last_4_digits ?? null,
  }
}

function failureOf(step: PaymentStep, object: FailureFields): OrderFailure {
  return {
    step,
    code: object.failure_code ?? null,
    description: object.failure_description ?? null,
  }
}
