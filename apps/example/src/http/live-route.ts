import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { isSettledStatus } from '../orders/order.js'
import { newId, orderRepository } from '../orders/order-repository.js'
import type { ShopContext } from '../shop-context.js'
import { orderPanel } from '../views/order-page.js'

/** How often an open page re-reads its order even without a notification from this process
 * (another shop process on the same PostgreSQL may have handled the webhook). */
const recheckMs = 5_000

/**
 * GET /orders/:id/live — server-sent events with the re-rendered order panel each time the order's
 * version moves past the one the page shows (`?version=` or the browser's Last-Event-ID on
 * reconnect). `shutdown` ends every stream when the shop stops.
 */
export function liveRoute(context: ShopContext, shutdown: AbortSignal) {
  return new Hono().get('/orders/:id/live', async (c) => {
    const id = c.req.param('id')
    if (!(await orderRepository.get(context.db, id))) return c.notFound()
    const shown = Number(c.req.header('last-event-id') ?? c.req.query('version') ?? 0)
    return streamSSE(c, async (stream) => {
      let version = Number.isFinite(shown) ? shown : 0
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
          if (order && order.version > version) {
            version = order.version
            const events = await orderRepository.events(context.db, id)
            const panel = await orderPanel({ order, events, requestKey: newId('req') })
            const settled = isSettledStatus(order.status)
            await stream.writeSSE({
              event: 'order',
              id: String(version),
              data: JSON.stringify({ version, settled, html: String(panel) }),
            })
          } else {
            await stream.write(': keep-alive\n\n')
          }
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
