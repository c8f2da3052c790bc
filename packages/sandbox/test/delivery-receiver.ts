import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** One request as a merchant's events_url received it. */
export interface ReceivedDelivery {
  url: URL
  method: string
  headers: IncomingHttpHeaders
  body: string
  /** `id` and `type` of the parsed body (the compact form). */
  id: string
  type: string
  /** Date.now() when the request arrived, before it was answered. */
  receivedAt: number
}

/**
 * How the receiver answers the n-th request (0-based): a status, `'hang'` (never answers), or a
 * full response of its own.
 */
export type Answer = number | 'hang' | ((response: ServerResponse) => void)
export type AnswerRule = (delivery: ReceivedDelivery, index: number) => Answer

export interface Receiver {
  url: string
  port: number
  received: ReceivedDelivery[]
  /** Connections currently open to this receiver. */
  openConnections(): number
  /** Resolves when `predicate` holds for the received list; rejects after `limitMs`. */
  until(predicate: (received: ReceivedDelivery[]) => boolean, limitMs?: number): Promise<void>
  /** Stops listening (clients then get ECONNREFUSED) and drops open connections. */
  stop(): Promise<void>
  /** Listens again on the same port. */
  restart(): Promise<void>
}

/** A real node:http receiver on 127.0.0.1 that records every delivery and answers by `rule`. */
export async function startReceiver(rule: AnswerRule = () => 200, port = 0): Promise<Receiver> {
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
        const parsed = JSON.parse(body) as { id: string; type: string }
        const delivery: ReceivedDelivery = {
          url: new URL(request.url ?? '/', 'http://127.0.0.1'),
          method: request.method ?? '',
          headers: request.headers,
          body,
          id: parsed.id,
          type: parsed.type,
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
    // A long keep-alive, so a client that leaks its sockets shows up in openConnections().
    created.keepAliveTimeout = 60_000
    created.on('connection', (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    return created
  }

  async function until(predicate: (list: ReceivedDelivery[]) => boolean, limitMs = 15_000) {
    if (predicate(received)) return
    await new Promise<void>((resolve, reject) => {
      const limit = setTimeout(() => {
        waiters = waiters.filter((waiter) => waiter !== check)
        reject(new Error(`receiver: condition not met after ${received.length} deliveries`))
      }, limitMs)
      const check = () => {
        if (!predicate(received)) return
        clearTimeout(limit)
        waiters = waiters.filter((waiter) => waiter !== check)
        resolve()
      }
      waiters.push(check)
    })
  }

  async function stop() {
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  async function restart() {
    server = makeServer()
    await listen(server, boundPort)
  }

  return {
    url: `http://127.0.0.1:${boundPort}`,
    port: boundPort,
    received,
    openConnections: () => sockets.size,
    until,
    stop,
    restart,
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

/** Resolves when `condition()` holds, checking every few ms; rejects after `limitMs`. */
export async function eventually(condition: () => boolean, limitMs = 15_000, what = 'condition') {
  const deadline = Date.now() + limitMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
