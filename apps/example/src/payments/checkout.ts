import { toApiAmount } from '../money.js'
import { type CheckoutFlow, type Order, type OrderFailure, tooManyTries } from '../orders/order.js'
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

/** Creates the order, then its charge. The customer's browser then sends the card for it. */
export async function checkout(
  context: ShopContext,
  item: CheckoutItem,
  flow: CheckoutFlow,
): Promise<CheckoutResult> {
  const order = await orderRepository.create(context.db, { ...item, flow })
  let failure: OrderFailure | null = null
  try {
    // One order, one charge: a retried request (lost answer) cannot create a second charge.
    const charge = await createCharge(context, order, `checkout-${order.id}`)
    await orderRepository.attachCharge(context.db, order.id, charge.id)
  } catch (error) {
    failure = failureFromError('charge', error)
    await orderRepository.recordFailure(context.db, order.id, failure)
  }
  context.updates.publish(order.id)
  return { order: (await orderRepository.get(context.db, order.id)) ?? order, failure }
}

/**
 * Gives the order a new charge when the service stopped its current one after too many declined
 * cards. The browser asks for it, but the service decides: a charge that is not stopped is kept,
 * so nobody can make the shop create charges at will. The stopped charge's decline stays on the
 * order, for the customer to see why the form starts again.
 */
export async function replaceStoppedCharge(
  context: ShopContext,
  order: Order & { chargeId: string },
): Promise<void> {
  const current = await context.client.charges.retrieve(order.chargeId)
  if (current.failure_code !== tooManyTries) return
  // Keyed by the stopped charge: asked twice, the shop still creates one replacement.
  const replacement = await createCharge(context, order, `checkout-${order.id}-after-${current.id}`)
  await orderRepository.replaceCharge(context.db, order.id, {
    stopped: current.id,
    replacement: replacement.id,
    failure: { step: 'charge', code: tooManyTries, description: current.failure_description },
  })
  context.updates.publish(order.id)
}

/**
 * The order's charge: its metadata names the order (the webhook handler finds it from there),
 * its events_url is the shop's webhook endpoint, and its redirect_url brings the customer back
 * to the order after a 3-D Secure page. Created with the private key, so it is confirmed.
 */
function createCharge(
  context: ShopContext,
  order: Pick<Order, 'id' | 'productId' | 'amountMinor' | 'currency' | 'flow'>,
  idempotencyKey: string,
) {
  const settings = checkoutFlowSettings[order.flow]
  return context.client.charges.create(
    {
      charge_type: 'card_onetime',
      amount: toApiAmount(order.amountMinor, order.currency),
      currency: order.currency,
      channels: [settings.channel],
      events_url: `${context.publicUrl}/webhooks`,
      redirect_url: `${context.publicUrl}/orders/${order.id}`,
      metadata: { order_id: order.id, product_id: order.productId },
      instrument_params: settings.instrumentParams,
    },
    { idempotencyKey },
  )
}
