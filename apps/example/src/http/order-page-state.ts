import { availableActions, type Order } from '../orders/order.js'
import { newId, orderRepository } from '../orders/order-repository.js'
import { checkoutFlowSettings } from '../payments/checkout-flows.js'
import type { ShopContext } from '../shop-context.js'
import type { OrderPageState, PaymentFormView } from '../views/order-page.js'

/**
 * Everything the order panel shows, for the page and its live updates alike: the timeline, a
 * fresh request key for the follow-up forms, and — while the order awaits a card or an MB WAY
 * phone number — the payment form drawn from the service's schema.
 */
export async function loadOrderPageState(
  context: ShopContext,
  order: Order,
  extra: Partial<OrderPageState> = {},
): Promise<OrderPageState> {
  const [events, paymentForm] = await Promise.all([
    orderRepository.events(context.db, order.id),
    availableActions(order).pay ? loadPaymentForm(context, order) : null,
  ])
  return {
    order,
    events,
    requestKey: newId('req'),
    paymentForm,
    customerSimulator: context.customerSimulator,
    ...extra,
  }
}

async function loadPaymentForm(
  context: ShopContext,
  order: Order,
): Promise<PaymentFormView | null> {
  const { publicKey, serviceUrl, paymentMethods } = context.browserCheckout
  try {
    const fields = (await paymentMethods()).fieldsOf(checkoutFlowSettings[order.flow].chargeType)
    return { fields, publicKey, serviceUrl }
  } catch {
    // The page says the form could not be loaded; the next render asks the service again.
    return null
  }
}
