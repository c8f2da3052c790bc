import { type EventOf, type EventType, toMinorUnits } from '@chargekit/schemas'
import { checkoutFlowSettings } from '../payments/checkout-flows.js'
import { customerActionOf, type PendingRedirect } from '../payments/customer-action.js'
import {
  type Order,
  type OrderFailure,
  type OrderStatus,
  type PaymentStep,
  tooManyTries,
} from './order.js'

// The fields of an event's objects that move an order. Structural, so the transitions can be
// tested with small objects; `satisfies` below checks that the full event of each type fits.
interface FailureFields {
  failure_code?: string | null | undefined
  failure_description?: string | null | undefined
}

interface InstrumentFields extends FailureFields {
  id: string
  captured_on_creation?: boolean | undefined
  params?: { brand?: string | undefined; last_4_digits?: string | undefined } | null | undefined
  redirect?: PendingRedirect | null | undefined
}

interface PaymentFields extends FailureFields {
  id: string
  amount: number
  currency: string
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
    | 'customerAction'
    | 'failure'
  >
>

/**
 * How one event type moves an order. Typed by the objects that type always carries (an
 * `instrument.pending` event has its instrument), so a transition never guesses.
 */
export type OrderTransition<E> = (order: Order, event: E) => OrderChange | null

const beforeAuthorization: readonly OrderStatus[] = [
  'awaiting_payment',
  'processing',
  'awaiting_customer',
]
const capturable: readonly OrderStatus[] = [...beforeAuthorization, 'authorized', 'payment_failed']
/** Funds held and not captured: what a capture or a reversal acts on. */
const holdingFunds: readonly OrderStatus[] = ['authorized', 'payment_failed']

/**
 * What each lifecycle event type does to an order; the webhook receiver registers one handler
 * per type from this table. Deliveries may arrive out of order and more than once
 * ([delivery](../../../../docs/service/delivery.md#ordering-and-duplicates)): each rule only
 * moves the order forward from the statuses where the event makes sense, so a late or repeated
 * event never undoes a later state — nor clears the decline of a later step (see `resolves`).
 * Event types not listed change nothing; they only go on the order's timeline.
 */
export const orderTransitions = {
  /**
   * A 3-D Secure page, or the customer asked to pay outside the shop: MB WAY's request in the
   * app, a Multibanco reference. The latter waits for the customer, with what they must do.
   */
  'instrument.pending': (order: Order, { instrument }: { instrument: InstrumentFields }) => {
    if (order.status !== 'awaiting_payment' && order.status !== 'processing') return null
    // Overtaken by this card's decline (a failed 3-D Secure): the order waits for another card.
    if (order.instrumentId === instrument.id && order.failure?.step === 'instrument') return null
    const customerAction = customerActionOf(order.flow, instrument.redirect)
    return customerAction
      ? { status: 'awaiting_customer', instrumentId: instrument.id, customerAction }
      : { status: 'processing', instrumentId: instrument.id, ...cardOf(instrument) }
  },

  'instrument.authorized': (order: Order, { instrument }: { instrument: InstrumentFields }) => {
    if (!beforeAuthorization.includes(order.status)) return null
    // The service's advice: an authorized instrument completes the transaction. When it is not
    // captured on creation, the funds are only held until the shop captures or cancels.
    const status = instrument.captured_on_creation === false ? 'authorized' : 'paid'
    return {
      status,
      instrumentId: instrument.id,
      ...cardOf(instrument),
      ...resolves(order, ['charge', 'instrument']),
    }
  },

  /**
   * A declined card (or a failed 3-D Secure) lets the customer try another card. A payment the
   * customer makes outside the shop ends the order instead: its deadline passed (`expired`), or
   * the customer refused the MB WAY request (`failed`) — the shop does not push request after
   * request to a phone.
   */
  'instrument.invalid': (order: Order, { instrument }: { instrument: InstrumentFields }) => {
    if (!beforeAuthorization.includes(order.status)) return null
    const failure = failureOf('instrument', instrument)
    if (checkoutFlowSettings[order.flow].method === 'card') {
      return { status: 'awaiting_payment', instrumentId: instrument.id, failure }
    }
    return { status: failure.code === instrumentExpired ? 'expired' : 'failed', failure }
  },

  'payment.success': (
    order: Order,
    { payment, instrument }: { payment: PaymentFields; instrument: InstrumentFields },
  ) => {
    if (order.paymentId !== null) return null
    // It may overtake instrument.authorized: the card it was paid with comes with it too.
    const captured = {
      paymentId: payment.id,
      capturedMinor: minor(payment),
      instrumentId: instrument.id,
      ...cardOf(instrument),
    }
    if (order.status === 'paid') return captured
    if (!capturable.includes(order.status)) return null
    return {
      ...captured,
      status: 'paid',
      ...resolves(order, ['charge', 'instrument', 'payment']),
    }
  },

  'payment.error': (
    order: Order,
    { payment, instrument }: { payment: PaymentFields; instrument: InstrumentFields },
  ) => {
    if (order.paymentId !== null) return null
    const failure = failureOf('payment', payment)
    // A declined capture leaves the authorization open: capture again or cancel.
    if (holdingFunds.includes(order.status)) return { failure }
    if (order.status !== 'paid' && !beforeAuthorization.includes(order.status)) return null
    // Paid on instrument.authorized, or this event overtook it: a capture needs an
    // authorization, so the event's instrument is the open one.
    const held = order.status === 'paid' || instrument.captured_on_creation !== false
    return {
      status: held ? 'payment_failed' : 'authorized',
      instrumentId: instrument.id,
      ...cardOf(instrument),
      failure,
    }
  },

  'refund.success': (order: Order, { refund }: { refund: { id: string; amount: number } }) => {
    if (order.status !== 'paid' && order.status !== 'partially_refunded') return null
    const refundedMinor = order.refundedMinor + toMinorUnits(refund.amount, order.currency)
    const status = refundedMinor >= order.capturedMinor ? 'refunded' : 'partially_refunded'
    return { status, refundedMinor, ...resolves(order, ['refund']) }
  },

  'refund.error': (_order: Order, { refund }: { refund: FailureFields }) => ({
    failure: failureOf('refund', refund),
  }),

  'reversal.success': (order: Order) =>
    holdingFunds.includes(order.status) ? { status: 'cancelled', failure: null } : null,

  'reversal.error': (_order: Order, { reversal }: { reversal: FailureFields }) => ({
    failure: failureOf('reversal', reversal),
  }),

  'charge.error': (order: Order, { charge }: { charge: FailureFields }) => {
    if (order.status !== 'awaiting_payment') return null
    const failure = failureOf('charge', charge)
    // Stopped after too many declined cards: the shop gives the order a new charge, so the
    // order itself has not failed.
    if (failure.code === tooManyTries) return { failure }
    return { status: 'failed', failure }
  },
} satisfies { [T in EventType]?: OrderTransition<EventOf<T>> }

/** The event types that move an order; every other type only goes on its timeline. */
export type OrderMovingEventType = keyof typeof orderTransitions

/** The decline of an authorization whose customer did not answer or pay in time. */
const instrumentExpired = '03.00.0002'

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

function cardOf(instrument: InstrumentFields) {
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
