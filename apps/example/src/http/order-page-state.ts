import { availableActions, type Order } from '../orders/order.js'
import { newId, orderRepository } from '../orders/order-repository.js'
import type { ShopContext } from '../shop-context.js'
import type { CardFormView, OrderPageState } from '../views/order-page.js'

/**
 * Everything the order panel shows, for the page and its live updates alike: the timeline, a
 * fresh request key for the follow-up forms, and — while the order awaits a card — the card
 * form drawn from the service's schema.
 */
export async function loadOrderPageState(
  context: ShopContext,
  order: Order,
  extra: Partial<OrderPageState> = {},
): Promise<OrderPageState> {
  const [events, cardForm] = await Promise.all([
    orderRepository.events(context.db, order.id),
    availableActions(order).pay ? loadCardForm(context) : null,
  ])
  return { order, events, requestKey: newId('req'), cardForm, ...extra }
}

async function loadCardForm(context: ShopContext): Promise<CardFormView | null> {
  const { publicKey, serviceUrl, cardFields } = context.browserCheckout
  try {
    return { fields: await cardFields(), publicKey, serviceUrl }
  } catch {
    // The page says the form could not be loaded; the next render asks the service again.
    return null
  }
}
