import { EventEmitter } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Delivery {
  id: string
  type: string
  forwardedStatus: number | null
}

/**
 * Stands between the sandbox and the shop's webhook endpoint. While closed it answers 503 and
 * forwards nothing, so the test can see what the shop does before any webhook reaches it.
 */
export async function startWebhookGate() {
  const deliveries: Delivery[] = []
  const arrived = new EventEmitter()
  let target: string | undefined
  let open = false
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const parsed = JSON.parse(body || '{}') as { id?: string; type?: string }
    const delivery: Delivery = {
      id: parsed.id ?? '',
      type: parsed.type ?? '',
      forwardedStatus: null,
    }
    deliveries.push(delivery)
    arrived.emit('delivery', delivery)
    if (!open || !target || request.method !== 'POST') {
      response.writeHead(503).end('gate closed')
      return
    }
    try {
      const forwarded = await fetch(new URL(request.url ?? '/', target), {
        method: 'POST',
        headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
        body,
      })
      delivery.forwardedStatus = forwarded.status
      response.writeHead(forwarded.status).end(await forwarded.text())
    } catch {
      // The shop behind is gone (stopped at the end of a test while the sandbox still retries
      // events): the sandbox gets what a proxy answers then.
      response.writeHead(502).end('shop unreachable')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    /** The first delivery of an event of `type`, once the sandbox has tried it. */
    deliveryOf(type: string): Promise<Delivery> {
      const seen = deliveries.find((delivery) => delivery.type === type)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve) => {
        const listener = (delivery: Delivery) => {
          if (delivery.type !== type) return
          arrived.off('delivery', listener)
          resolve(delivery)
        }
        arrived.on('delivery', listener)
      })
    },
    forwardTo(url: string) {
      target = url
    },
    open() {
      open = true
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}
