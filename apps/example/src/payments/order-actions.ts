import { toApiAmount } from '../money.js'
import type { Order, OrderFailure, PaymentStep } from '../orders/order.js'
import { orderRepository } from '../orders/order-repository.js'
import type { ShopContext } from '../shop-context.js'
import { failureFromError } from './decline.js'

/**
 * The merchant's follow-up operations. Each only asks the service; the order changes when the
 * matching event (payment.success, refund.success, reversal.success) reaches the webhook.
 * `requestKey` comes from the form, so a double-clicked button is one operation (Idempotency-Key).
 * A failed call returns the decline as recorded on the order: a webhook handled right after may
 * change the order's own copy.
 */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; failure: OrderFailure }

export function capture(
  context: ShopContext,
  order: Pick<Order, 'id' | 'amountMinor' | 'currency'>,
  instrumentId: string,
  requestKey: string,
) {
  return attempt(context, order.id, 'payment', () =>
    context.client.payments.create(
      {
        instrument: instrumentId,
        amount: toApiAmount(order.amountMinor, order.currency),
        currency: order.currency,
        description: `Order ${order.id}`,
        metadata: { order_id: order.id },
      },
      { idempotencyKey: `capture-${order.id}-${requestKey}` },
    ),
  )
}

export function refund(
  context: ShopContext,
  order: Pick<Order, 'id' | 'currency'>,
  paymentId: string,
  amountMinor: bigint,
  requestKey: string,
) {
  return attempt(context, order.id, 'refund', () =>
    context.client.payments.refund(
      paymentId,
      { amount: toApiAmount(amountMinor, order.currency), description: `Refund of ${order.id}` },
      { idempotencyKey: `refund-${order.id}-${requestKey}` },
    ),
  )
}

export function cancel(
  context: ShopContext,
  order: Pick<Order, 'id'>,
  instrumentId: string,
  requestKey: string,
) {
  return attempt(context, order.id, 'reversal', () =>
    context.client.instruments.reverse(
      instrumentId,
      {},
      {
        idempotencyKey: `cancel-${order.id}-${requestKey}`,
      },
    ),
  )
}

async function attempt<T>(
  context: ShopContext,
  orderId: string,
  step: PaymentStep,
  call: () => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await call() }
  } catch (error) {
    const failure = failureFromError(step, error)
    await orderRepository.recordFailure(context.db, orderId, failure)
    context.updates.publish(orderId)
    return { ok: false, failure }
  }
}
