import { createWebhooks } from '@chargekit/webhooks'
import type { ShopContext } from '../shop-context.js'
import { handleLifecycleEvent } from './handle-lifecycle-event.js'
import { createShopDeliveryStore, queryOn } from './sql-delivery-store.js'

/**
 * The shop's webhook receiver: @chargekit/webhooks parses each delivery, fetches the event with
 * the shop's own credentials (so forged deliveries are refused), claims it in the SQL delivery
 * store (so a duplicate does not run twice) and hands it to the order logic.
 */
export function createWebhookReceiver(context: ShopContext, log: (message: string) => void) {
  const store = createShopDeliveryStore(context.db)
  const webhooks = createWebhooks({ client: context.client, store })
  webhooks.onAny((event) =>
    handleLifecycleEvent(context, (tx, eventId) => store.completeIn(queryOn(tx), eventId), event),
  )
  webhooks.onError((error) => {
    log(`webhook delivery not processed: ${error.message}`)
  })
  return webhooks
}
