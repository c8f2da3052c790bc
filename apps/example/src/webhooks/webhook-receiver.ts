import { type EventType, eventTypeList } from '@chargekit/schemas'
import { createWebhooks } from '@chargekit/webhooks'
import {
  type OrderMovingEventType,
  type OrderTransition,
  orderTransitions,
} from '../orders/order-transitions.js'
import type { ShopContext } from '../shop-context.js'
import { type HandledEvent, handleLifecycleEvent } from './handle-lifecycle-event.js'
import { createShopDeliveryStore, queryOn } from './sql-delivery-store.js'

/**
 * The shop's webhook receiver: @chargekit/webhooks parses each delivery, checks its signature
 * when the service signs them (a sandbox does, with the account's secret), fetches the event with
 * the shop's own credentials (so forged deliveries are refused), claims it in the SQL delivery
 * store (so a duplicate does not run twice) and hands it to the handler of its type. Each type
 * that moves an order has its own handler, typed by the event; every other known type only goes
 * on the order's timeline.
 */
export function createWebhookReceiver(context: ShopContext, log: (message: string) => void) {
  const store = createShopDeliveryStore(context.db)
  const webhooks = createWebhooks({
    client: context.client,
    store,
    ...(context.signingSecret === undefined ? {} : { secret: context.signingSecret }),
  })
  const toOrder =
    <E>(transition: OrderTransition<E>) =>
    (event: E & HandledEvent) =>
      handleLifecycleEvent(
        context,
        (tx, eventId) => store.completeIn(queryOn(tx), eventId),
        event,
        transition,
      )

  webhooks.on('charge.error', toOrder(orderTransitions['charge.error']))
  webhooks.on('instrument.pending', toOrder(orderTransitions['instrument.pending']))
  webhooks.on('instrument.authorized', toOrder(orderTransitions['instrument.authorized']))
  webhooks.on('instrument.invalid', toOrder(orderTransitions['instrument.invalid']))
  webhooks.on('payment.success', toOrder(orderTransitions['payment.success']))
  webhooks.on('payment.error', toOrder(orderTransitions['payment.error']))
  webhooks.on('refund.success', toOrder(orderTransitions['refund.success']))
  webhooks.on('refund.error', toOrder(orderTransitions['refund.error']))
  webhooks.on('reversal.success', toOrder(orderTransitions['reversal.success']))
  webhooks.on('reversal.error', toOrder(orderTransitions['reversal.error']))
  webhooks.on(
    timelineOnlyTypes,
    toOrder(() => null),
  )
  webhooks.onError((error) => {
    log(`webhook delivery not processed: ${error.message}`)
  })
  return webhooks
}

/** Known event types that change no order (created, confirmed, settled…): listed on its page. */
const timelineOnlyTypes = eventTypeList.filter(
  (type): type is Exclude<EventType, OrderMovingEventType> =>
    !Object.hasOwn(orderTransitions, type),
)
