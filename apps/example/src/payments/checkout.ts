import type { CreateInstrumentRequest } from '@chargekit/client'
import { toApiAmount } from '../money.js'
import { type CheckoutFlow, type Order, type OrderFailure, tooManyTries } from '../orders/order.js'
import { orderRepository } from '../orders/order-repository.js'
import type { ShopContext } from '../shop-context.js'
import { checkoutFlowSettings } from './checkout-flows.js'
import { failureFromError } from './decline.js'
import { recordInstrument } from './instrument-return.js'

export interface CheckoutItem {
  productId: string
  description: string
  amountMinor: bigint
  currency: string
}

export interface CheckoutResult {
  order: Order
  /**
   * The decline recorded on the order at checkout (the charge's, or the Multibanco reference's);
   * null when none.
   */
  failure: OrderFailure | null
}

/**
 * Creates the order, then its charge. The customer's browser then sends the card (or the MB WAY
 * phone number) for it; for Multibanco, where the customer gives nothing, the shop asks for the
 * reference right away.
 */
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
  const current = (await orderRepository.get(context.db, order.id)) ?? order
  if (checkoutFlowSettings[flow].method === 'multibanco' && current.chargeId !== null) {
    failure = await requestReference(context, { ...current, chargeId: current.chargeId })
  }
  context.updates.publish(order.id)
  return { order: (await orderRepository.get(context.db, order.id)) ?? current, failure }
}

/**
 * Asks the service for the order's Multibanco reference (the instrument of a charge whose
 * customer gives nothing) and shows it on the order. Keyed by the charge: asked again — a retry
 * after the service was unreachable, a double click — the shop still gets one reference.
 * Returns the decline as recorded on the order, or null.
 */
export async function requestReference(
  context: ShopContext,
  order: Order & { chargeId: string },
): Promise<OrderFailure | null> {
  try {
    const instrument = await context.client.instruments.create(
      // The client types its request as a card's; a reference's is only the charge.
      { charge: order.chargeId } as CreateInstrumentRequest,
      { idempotencyKey: `reference-${order.chargeId}` },
    )
    await recordInstrument(context, order, instrument)
    return null
  } catch (error) {
    const failure = failureFromError('instrument', error)
    await orderRepository.recordFailure(context.db, order.id, failure)
    context.updates.publish(order.id)
    return failure
  }
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
 * to the order after a 3-D Secure page. The flow decides the charge type and the channel. Created with the private key, so it is confirmed.
 */
function createCharge(
  context: ShopContext,
  order: Pick<Order, 'id' | 'productId' | 'amountMinor' | 'currency' | 'flow'>,
  idempotencyKey: string,
) {
  const settings = checkoutFlowSettings[order.flow]
  return context.client.charges.create(
    {
      charge_type: settings.chargeType,
      amount: toApiAmount(order.amountMinor, order.currency),
      currency: order.currency,
      channels: [settings.channel],
      events_url: context.eventsUrl,
      redirect_url: `${context.publicUrl}/orders/${order.id}`,
      metadata: { order_id: order.id, product_id: order.productId },
      instrument_params: settings.instrumentParams,
    },
    { idempotencyKey },
  )
}
