import type { DeclinedElement } from '@chargekit/client'
import { checkoutFlowSettings } from '../payments/checkout-flows.js'

/**
 * An order as the shop keeps it. The payment state only moves forward when the service's
 * lifecycle events arrive through the webhook (see order-transitions.ts); the API answers to the
 * shop's own calls merely record attempts and declines.
 */
export type OrderStatus =
  | 'awaiting_payment' // created with its charge; waiting for a card (or an MB WAY phone number)
  | 'processing' // a card was submitted (or 3-D Secure is pending); waiting for the webhook
  | 'awaiting_customer' // the customer pays elsewhere: approves in the MB WAY app, pays a reference
  | 'authorized' // funds held, not captured: capture or cancel next
  | 'paid'
  | 'payment_failed' // authorized, but the capture was declined: capture again or cancel
  | 'partially_refunded'
  | 'refunded'
  | 'cancelled' // the authorization was reversed
  | 'failed' // the charge itself was declined: nothing can follow
  | 'expired' // the customer did not pay before the deadline (MB WAY request, Multibanco reference)

/**
 * How the order is paid: by card (capture at once, authorize only, or 3-D Secure with the
 * acquirer), with MB WAY, or with a Multibanco reference.
 */
export const checkoutFlows = ['pay', 'authorize', 'three_ds', 'mbway', 'multibanco'] as const

export type CheckoutFlow = (typeof checkoutFlows)[number]

/** The step of the lifecycle a decline came from: what `PaymentError.element` names. */
export type PaymentStep = DeclinedElement

/**
 * The charge's decline once it has declined as many cards as the service allows (Too Many
 * Tries): it takes no more, so the shop gives the order a new charge instead of failing it.
 */
export const tooManyTries = '02.01.0000'

export interface OrderFailure {
  step: PaymentStep
  code: string | null
  description: string | null
}

/**
 * What the customer was asked to do outside the shop, as the service described it in the pending
 * instrument's `redirect.parameters`: the phone an MB WAY request went to (masked by the
 * service), or the Multibanco reference to pay. `expiresAt` is the deadline (ISO 8601).
 */
export type CustomerAction =
  | { method: 'mbway'; phoneNumber: string; expiresAt: string }
  | {
      method: 'multibanco'
      entity: string
      reference: string
      amountMinor: bigint
      currency: string
      expiresAt: string
    }

export interface Order {
  id: string
  productId: string
  description: string
  amountMinor: bigint
  currency: string
  flow: CheckoutFlow
  status: OrderStatus
  chargeId: string | null
  instrumentId: string | null
  paymentId: string | null
  capturedMinor: bigint
  refundedMinor: bigint
  cardBrand: string | null
  cardLast4: string | null
  customerAction: CustomerAction | null
  failure: OrderFailure | null
  /** Bumped on every change; the live page compares it to know when to re-render. */
  version: number
  createdAt: Date
  updatedAt: Date
}

/** What the order page may offer next. */
export function availableActions(order: Order) {
  const refundable = order.capturedMinor - order.refundedMinor
  // A declined automatic capture leaves the authorization open: the funds stay held until the
  // shop captures again or cancels, so both stay on offer.
  const holdsFunds =
    (order.status === 'authorized' || order.status === 'payment_failed') &&
    order.instrumentId !== null
  return {
    pay: order.status === 'awaiting_payment' && order.chargeId !== null,
    capture: holdsFunds,
    cancel: holdsFunds,
    refund:
      checkoutFlowSettings[order.flow].refundable &&
      (order.status === 'paid' || order.status === 'partially_refunded') &&
      order.paymentId !== null &&
      refundable > 0n,
    refundableMinor: refundable > 0n ? refundable : 0n,
  }
}

export const statusLabels: Record<OrderStatus, string> = {
  awaiting_payment: 'Awaiting payment',
  processing: 'Processing',
  authorized: 'Authorized',
  paid: 'Paid',
  awaiting_customer: 'Awaiting customer',
  payment_failed: 'Payment failed',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
  cancelled: 'Cancelled',
  failed: 'Failed',
  expired: 'Expired',
}

/**
 * Statuses no lifecycle event moves the order out of, and from which the shop offers nothing
 * more: the live page stops listening there. A paid or partially refunded order is not final —
 * a refund can still come later. (Settlement events may still arrive; they only add timeline
 * lines, shown when the page is loaded again.)
 */
export function isFinalStatus(status: OrderStatus): boolean {
  return (
    status === 'refunded' || status === 'cancelled' || status === 'failed' || status === 'expired'
  )
}
