import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { isFinalStatus } from '../orders/order.js'
import { orderRepository } from '../orders/order-repository.js'
import type { ShopContext } from '../shop-context.js'
import { orderPanel } from '../views/order-page.js'
import { loadOrderPageState } from './order-page-state.js'

/** How often an open page re-reads its order even without a notification from this process
 * (another shop process on the same PostgreSQL may have handled the webhook). */
const recheckMs = 5_000

/**
 * GET /orders/:id/live — server-sent events with the re-rendered order panel each time the order's
 * version moves past the one the page shows (`?version=` or the browser's Last-Event-ID on
 * reconnect). The stream ends once the page shows a final order (`final: true` in the last
 * update); asked again for it, the route answers 204, which tells EventSource not to reconnect.
 * `shutdown` ends every stream when the shop stops.
 */
export function liveRoute(context: ShopContext, shutdown: AbortSignal) {
  return new Hono().get('/orders/:id/live', async (c) => {
    const id = c.req.param('id')
    const current = await orderRepository.get(context.db, id)
    if (!current) return c.notFound()
    const shown = Number(c.req.header('last-event-id') ?? c.req.query('version') ?? 0)
    const shownVersion = Number.isFinite(shown) ? shown : 0
    if (isFinalStatus(current.status) && current.version <= shownVersion) return c.body(null, 204)
    return streamSSE(c, async (stream) => {
      let version = shownVersion
      // `dirty` catches a notification that lands while the loop is busy reading the order.
      let dirty = false
      let wake = () => {}
      const notify = () => {
        dirty = true
        wake()
      }
      const unsubscribe = context.updates.subscribe(id, notify)
      shutdown.addEventListener('abort', notify)
      stream.onAbort(notify)
      try {
        while (!stream.aborted && !shutdown.aborted) {
          dirty = false
          const order = await orderRepository.get(context.db, id)
          if (!order) return
          const final = isFinalStatus(order.status)
          if (order.version > version) {
            version = order.version
            const panel = await orderPanel(await loadOrderPageState(context, order))
            await stream.writeSSE({
              event: 'order',
              id: String(version),
              data: JSON.stringify({ version, final, html: String(panel) }),
            })
          } else {
            await stream.write(': keep-alive\n\n')
          }
          // The page now shows the final order: nothing it offers can change any more.
          if (final) return
          if (dirty) continue
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, recheckMs)
            wake = () => {
              clearTimeout(timer)
              resolve()
            }
          })
        }
      } finally {
        unsubscribe()
        shutdown.removeEventListener('abort', notify)
      }
    })
  })
}
