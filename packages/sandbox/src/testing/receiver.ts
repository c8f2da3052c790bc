import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** One request as a merchant's `events_url` received it. */
export interface ReceivedDelivery {
  url: URL
  method: string
  headers: IncomingHttpHeaders
  body: string
  /** `id` and `type` of the parsed body (the compact form). */
  id: string
  type: string
  /** `Date.now()` when the request arrived, before it was answered. */
  receivedAt: number
}

/**
 * How the receiver answers a request: a status, `'hang'` (never answers), or a full response of
 * its own.
 */
export type ReceiverAnswer = number | 'hang' | ((response: ServerResponse) => void)
/** Picks the answer to the `index`-th request (0-based). */
export type ReceiverRule = (delivery: ReceivedDelivery, index: number) => ReceiverAnswer

export interface Receiver {
  /** `http://127.0.0.1:<port>`: any path under it is an `events_url`. */
  url: string
  port: number
  /** Every request so far, in arrival order. */
  received: ReceivedDelivery[]
  /** Connections currently open to this receiver. */
  openConnections(): number
  /** Resolves when `predicate` holds for the received list; rejects after `timeoutMs` (15 s). */
  until(predicate: (received: ReceivedDelivery[]) => boolean, timeoutMs?: number): Promise<void>
  /** Stops listening (senders then get ECONNREFUSED) and drops open connections. */
  stop(): Promise<void>
  /** Listens again on the same port. */
  restart(): Promise<void>
}

/**
 * A real node:http server on 127.0.0.1 standing in for a merchant's `events_url`: it records
 * every delivery and answers each by `rule` (default 200). Stop it with `stop()`.
 */
export async function startReceiver(rule: ReceiverRule = () => 200, port = 0): Promise<Receiver> {
  const received: ReceivedDelivery[] = []
  const sockets = new Set<Socket>()
  let waiters: (() => void)[] = []
  let server = makeServer()
  await listen(server, port)
  const boundPort = (server.address() as AddressInfo).port

  function makeServer(): Server {
    const created = createServer((request, response) => {
      const receivedAt = Date.now()
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const { id, type } = parseDelivery(body)
        const delivery: ReceivedDelivery = {
          url: new URL(request.url ?? '/', 'http://127.0.0.1'),
          method: request.method ?? '',
          headers: request.headers,
          body,
          id,
          type,
          receivedAt,
        }
        const answer = rule(delivery, received.length)
        received.push(delivery)
        if (typeof answer === 'number') {
          response.writeHead(answer, { 'content-type': 'text/plain' })
          response.end('ok')
        } else if (typeof answer === 'function') {
          answer(response)
        }
        for (const wake of waiters) wake()
      })
    })
    // A long keep-alive, so a sender that leaks its sockets shows up in openConnections().
    created.keepAliveTimeout = 60_000
    created.on('connection', (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    return created
  }

  async function until(predicate: (list: ReceivedDelivery[]) => boolean, timeoutMs = 15_000) {
    if (predicate(received)) return
    await new Promise<void>((resolve, reject) => {
      const limit = setTimeout(() => {
        waiters = waiters.filter((waiter) => waiter !== check)
        reject(new Error(`receiver: condition not met after ${received.length} deliveries`))
      }, timeoutMs)
      const check = () => {
        if (!predicate(received)) return
        clearTimeout(limit)
        waiters = waiters.filter((waiter) => waiter !== check)
        resolve()
      }
      waiters.push(check)
    })
  }

  return {
    url: `http://127.0.0.1:${boundPort}`,
    port: boundPort,
    received,
    openConnections: () => sockets.size,
    until,
    async stop() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
    async restart() {
      server = makeServer()
      await listen(server, boundPort)
    },
  }
}

/** The compact delivery's id and type; empty for a body that is not one (still recorded). */
function parseDelivery(body: string): { id: string; type: string } {
  try {
    const parsed = JSON.parse(body) as { id?: unknown; type?: unknown }
    return {
      id: typeof parsed.id === 'string' ? parsed.id : '',
      type: typeof parsed.type === 'string' ? parsed.type : '',
    }
  } catch {
    return { id: '', type: '' }
  }
}

function listen(server: Server, port: number) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
}
