/**
 * An order as the shop keeps it. The payment state only moves forward when the service's
 * lifecycle events arrive through the webhook (see order-transitions.ts); the API answers to the
 * shop's own calls merely record attempts and declines.
 */
export type OrderStatus =
  | 'awaiting_payment' // created with its charge; waiting for a card
  | 'processing' // a card was submitted (or 3-D Secure is pending); waiting for the webhook
  | 'authorized' // funds held, not captured: capture or cancel next
  | 'paid'
  | 'payment_failed' // authorized, but the automatic capture was declined
  | 'partially_refunded'
  | 'refunded'
  | 'cancelled' // the authorization was reversed
  | 'failed' // the charge itself was declined: nothing can follow

/** How the order is paid: capture at once, authorize only, or 3-D Secure with the acquirer. */
export const checkoutFlows = ['pay', 'authorize', 'three_ds'] as const

export type CheckoutFlow = (typeof checkoutFlows)[number]

/** The step of the lifecycle a decline came from (the test-amount elements, DESIGN §7). */
export type PaymentStep = 'charge' | 'instrument' | 'payment' | 'refund' | 'reversal'

export interface OrderFailure {
  step: PaymentStep
  code: string | null
  description: string | null
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
  failure: OrderFailure | null
  /** Bumped on every change; the live page compares it to know when to re-render. */
  version: number
  createdAt: Date
  updatedAt: Date
}

/** What the order page may offer next. */
export function availableActions(order: Order) {
  const refundable = order.capturedMinor - order.refundedMinor
  return {
    pay: order.status === 'awaiting_payment' && order.chargeId !== null,
    capture: order.status === 'authorized',
    cancel: order.status === 'authorized',
    refund:
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
  payment_failed: 'Payment failed',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
  cancelled: 'Cancelled',
  failed: 'Failed',
}

/** Statuses after which nothing more will happen; the live page stops listening there. */
export function isSettledStatus(status: OrderStatus): boolean {
  return status === 'refunded' || status === 'cancelled' || status === 'failed'
}
