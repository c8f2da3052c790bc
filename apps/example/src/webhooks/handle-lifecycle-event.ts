import type { SqlExecutor } from '@chargekit/sandbox'
import { orderRepository } from '../orders/order-repository.js'
import type { OrderTransition } from '../orders/order-transitions.js'
import type { ShopContext } from '../shop-context.js'

/** What every lifecycle event the shop handles carries: the charge names the order. */
export interface HandledEvent {
  id: string
  type: string
  object_id?: string | null | undefined
  charge?: { id: string; metadata?: Record<string, unknown> | string | null } | null | undefined
}

/**
 * Applies one authentic lifecycle event (fetched by @chargekit/webhooks with the shop's own
 * credentials) to the order its charge metadata names, as its type's `transition` says. The order's change, its timeline entry and
 * the "event handled" mark commit in ONE transaction: a crash leaves either all of them or none,
 * and the service's retry then finds the event either done or free to run again.
 */
export async function handleLifecycleEvent<E extends HandledEvent>(
  context: Pick<ShopContext, 'db' | 'updates'>,
  markHandled: (tx: SqlExecutor, eventId: string) => Promise<void>,
  event: E,
  transition: OrderTransition<E>,
): Promise<void> {
  const orderId = orderIdOf(event)
  const changed = await context.db.transaction(async (tx) => {
    const order =
      orderId === undefined ? undefined : await orderRepository.getForUpdate(tx, orderId)
    // Events of charges this shop did not create (same account, another integration) are
    // acknowledged and ignored, so the service stops retrying them.
    const chargeId = event.charge?.id
    if (!order || !chargeId || (order.chargeId !== null && order.chargeId !== chargeId)) {
      await markHandled(tx, event.id)
      return undefined
    }
    const objectId = event.object_id ?? null
    // An object reaches each state once, so an event of this type about this object that the
    // timeline already holds was applied: by this very event, run again because its claim lease
    // ran out mid-handler, or by another event reporting the same refund. The row lock above
    // orders the two runs; applying it again would, for one, count a refund twice.
    if (objectId && (await orderRepository.hasEventAbout(tx, order.id, event.type, objectId))) {
      await markHandled(tx, event.id)
      return undefined
    }
    // The webhook can overtake the API answer that created the charge: adopt the charge here.
    if (order.chargeId === null) await orderRepository.attachCharge(tx, order.id, chargeId)
    const change = transition(order, event)
    const next = change ? await orderRepository.applyChange(tx, order, change) : order
    await orderRepository.logEvent(tx, order.id, {
      id: event.id,
      type: event.type,
      objectId,
      statusAfter: next.status,
    })
    await markHandled(tx, event.id)
    return order.id
  })
  if (changed) context.updates.publish(changed)
}

function orderIdOf(event: HandledEvent): string | undefined {
  // The shop creates its charges with object metadata; a string is some other integration's.
  const metadata = event.charge?.metadata
  const value = typeof metadata === 'object' ? metadata?.order_id : undefined
  return typeof value === 'string' ? value : undefined
}
