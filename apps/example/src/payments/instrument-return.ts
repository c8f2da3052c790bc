import { type Instrument, NotFoundError } from '@chargekit/client'
import type { Order } from '../orders/order.js'
import { orderRepository } from '../orders/order-repository.js'
import type { ShopContext } from '../shop-context.js'
import { customerActionOf } from './customer-action.js'

/** What an instrument id from the address bar may look like before the shop asks about it. */
const instrumentIdPattern = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The customer is back on the order page with `?instrument=…`: after the checkout script sent
 * the card or the MB WAY phone number, or after the 3-D Secure page. The id comes from the address
 * bar, so the shop reads the instrument with its private key and only takes it when it belongs
 * to this order's charge; whether it is paid or declined still comes from the webhook.
 */
export async function recordReturnedInstrument(
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
  await recordInstrument(context, order, instrument)
}

/**
 * Notes an instrument of the order as the service answered it. Waiting for the customer outside
 * the shop (MB WAY, Multibanco): the order shows what they must do. A card: the shop keeps its
 * brand and last 4 digits and moves the order to _Processing_.
 */
export async function recordInstrument(
  context: ShopContext,
  order: Order,
  instrument: Instrument,
): Promise<void> {
  // A declined card, a failed 3-D Secure: its decline arrives with instrument.invalid.
  if (instrument.status !== 'authorized' && instrument.status !== 'pending') return
  const action =
    instrument.status === 'pending' ? customerActionOf(order.flow, instrument.redirect) : undefined
  if (action) {
    await orderRepository.recordAwaitingCustomer(context.db, order.id, {
      instrumentId: instrument.id,
      action,
    })
  } else {
    await orderRepository.recordCardAttempt(context.db, order.id, {
      instrumentId: instrument.id,
      brand: instrument.params?.brand ?? null,
      last4: instrument.params?.last_4_digits ?? null,
    })
  }
  context.updates.publish(order.id)
}
