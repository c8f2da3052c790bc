import { minorToDecimalString } from '../money.js'
import type { CustomerAction, Order } from '../orders/order.js'
import type { OrderEventRecord } from '../orders/order-repository.js'

/** The order as JSON for scripts and tests: amounts as exact decimal strings, never floats. */
export function orderJson(order: Order, events: readonly OrderEventRecord[]) {
  const money = (minor: bigint) => minorToDecimalString(minor, order.currency)
  return {
    id: order.id,
    status: order.status,
    flow: order.flow,
    description: order.description,
    amount: money(order.amountMinor),
    currency: order.currency,
    captured: money(order.capturedMinor),
    refunded: money(order.refundedMinor),
    charge_id: order.chargeId,
    instrument_id: order.instrumentId,
    payment_id: order.paymentId,
    card: order.cardLast4 ? { brand: order.cardBrand, last4: order.cardLast4 } : null,
    customer_action: order.customerAction && customerActionJson(order.customerAction),
    failure: order.failure,
    version: order.version,
    events: events.map((event) => ({
      id: event.eventId,
      type: event.eventType,
      object_id: event.objectId,
      status_after: event.statusAfter,
      received_at: event.receivedAt.toISOString(),
    })),
  }
}

function customerActionJson(action: CustomerAction) {
  if (action.method === 'mbway') {
    return { method: action.method, phone_number: action.phoneNumber, expires_at: action.expiresAt }
  }
  return {
    method: action.method,
    entity: action.entity,
    reference: action.reference,
    amount: minorToDecimalString(action.amountMinor, action.currency),
    currency: action.currency,
    expires_at: action.expiresAt,
  }
}
