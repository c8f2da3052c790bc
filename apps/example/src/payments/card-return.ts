import { NotFoundError } from '@chargekit/client'
import type { Order } from '../orders/order.js'
import { orderRepository } from '../orders/order-repository.js'
import type { ShopContext } from '../shop-context.js'

/** What an instrument id from the address bar may look like before the shop asks about it. */
const instrumentIdPattern = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The customer is back on the order page with `?instrument=…`: after the checkout script sent
 * the card, or after the 3-D Secure page. The id comes from the address bar, so the shop reads the
 * instrument with its private key and only takes it when it belongs to this order's charge. It
 * keeps the card's brand and last 4 digits from that answer and moves the order to
 * _Processing_; whether it is paid or declined still comes from the webhook.
 */
export async function recordReturnedCard(
  context: ShopContext,
  order: Order,
  instrumentId: string,
): Promise<void> {
  if (order.chargeId === null || !instrumentIdPattern.test(instrumentId)) return
  const instrument = await context.client.instruments.retrieve(instrumentId).catch((error) => {
    if (error instanceof NotFoundError) return undefined
    throw error
  })
  if (instrument?.charge?.id !== order.chargeId) return
  // A declined card or a failed 3-D Secure: its decline arrives with instrument.invalid.
  if (instrument.status !== 'authorized' && instrument.status !== 'pending') return
  await orderRepository.recordCardAttempt(context.db, order.id, {
    instrumentId: instrument.id,
    brand: instrument.params?.brand ?? null,
    last4: instrument.params?.last_4_digits ?? null,
  })
  context.updates.publish(order.id)
}
