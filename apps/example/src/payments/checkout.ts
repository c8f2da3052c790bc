import { toApiAmount } from '../money.js'
import type { CheckoutFlow, Order, OrderFailure } from '../orders/order.js'
import { orderRepository } from '../orders/order-repository.js'
import type { ShopContext } from '../shop-context.js'
import { checkoutFlowSettings } from './checkout-flows.js'
import { failureFromError } from './decline.js'

export interface CheckoutItem {
  productId: string
  description: string
  amountMinor: bigint
  currency: string
}

export interface CheckoutResult {
  order: Order
  /** The charge's decline as recorded on the order; null when the charge was created. */
  failure: OrderFailure | null
}

/**
 * Creates the order, then its charge. The charge's metadata names the order (the webhook handler
 * finds it from there), its events_url is the shop's webhook endpoint, and its redirect_url brings
 * the customer back to the order after a 3-D Secure page.
 */
export async function checkout(
  context: ShopContext,
  item: CheckoutItem,
  flow: CheckoutFlow,
): Promise<CheckoutResult> {
  const order = await orderRepository.create(context.db, { ...item, flow })
  const settings = checkoutFlowSettings[flow]
  let failure: OrderFailure | null = null
  try {
    const charge = await context.client.charges.create(
      {
        charge_type: 'card_onetime',
        amount: toApiAmount(item.amountMinor, item.currency),
        currency: item.currency,
        channels: [settings.channel],
        events_url: `${context.publicUrl}/webhooks`,
        redirect_url: `${context.publicUrl}/orders/${order.id}`,
        metadata: { order_id: order.id, product_id: item.productId },
        instrument_params: settings.instrumentParams,
      },
      // One order, one charge: a retried request (lost answer) cannot create a second charge.
      { idempotencyKey: `checkout-${order.id}` },
    )
    await orderRepository.attachCharge(context.db, order.id, charge.id)
  } catch (error) {
    failure = failureFromError('charge', error)
    await orderRepository.recordFailure(context.db, order.id, failure)
  }
  context.updates.publish(order.id)
  return { order: (await orderRepository.get(context.db, order.id)) ?? order, failure }
}
