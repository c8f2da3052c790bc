import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type CompactEvent, type CompactEventSource, toCompactEvent } from '@chargekit/schemas'
import { Pool } from 'undici'

/** A bare `node:http` server on loopback: the baseline every server-side benchmark compares to. */
export async function startBareServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * Answers every request with the same JSON text, after reading (and discarding) the body; then
 * calls `onAnswered`, if given (what a server does after answering, such as sending deliveries).
 */
export function fixedJsonHandler(body: string, status = 200, onAnswered?: () => void) {
  return (request: IncomingMessage, response: ServerResponse) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(body)
      onAnswered?.()
    })
  }
}

/**
 * What the sandbox at `apiUrl` delivers for the events its `GET /events?{query}` lists: each
 * event's compact form, the body of its deliveries, so bare POSTs can weigh what they do.
 */
export async function compactEvents(
  apiUrl: string,
  headers: Record<string, string>,
  query: string,
): Promise<CompactEvent[]> {
  const response = await fetch(`${apiUrl}/events?${query}`, { headers })
  if (!response.ok) throw new Error(`GET /events?${query}: ${response.status}`)
  const { collection } = (await response.json()) as { collection: CompactEventSource[] }
  if (collection.length === 0) {
    throw new Error(`the sandbox at ${apiUrl} lists no event for ${query}`)
  }
  return collection.map(toCompactEvent)
}

/** The compact JSON of the sandbox's latest event: the body `wirePosts` sends. */
export async function latestEventJson(
  apiUrl: string,
  headers: Record<string, string>,
): Promise<string> {
  const [latest] = await compactEvents(apiUrl, headers, 'per_page=1')
  return JSON.stringify(latest)
}

/** The headers of the sandbox's deliveries besides the signature's (and the body's length). */
export const unsignedDeliveryHeaders = {
  'content-type': 'application/json',
  'user-agent': 'chargekit-sandbox',
} as const

/**
 * The headers of a signed delivery of `eventId` (the sandbox signs by default). Signing is the
 * engine's work, not the wire's: the signature headers come with values of the same length, not
 * computed, so the receiver reads as many bytes as from the engine.
 */
export function signedDeliveryHeaders(eventId: string) {
  return {
    ...unsignedDeliveryHeaders,
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': `v1,${'A'.repeat(43)}=`,
  }
}

/**
 * Deliveries at the bare minimum cost of the wire: `post()` sends `body` (a real delivery's) to
 * `eventsUrl` with a delivery's headers, signed (the sandbox's default: the same bytes, not
 * computed) or not, and does not wait for it, as the sandbox's engine sends (undici's dispatcher,
 * kept-alive connections, 64 at most; more wait for one); nothing else is done per delivery.
 */
export function wirePosts(
  eventsUrl: string,
  body: string,
  signature: 'signed' | 'unsigned',
): { post(): void; close(): Promise<void> } {
  const url = new URL(eventsUrl)
  const pool = new Pool(url.origin, { connections: 64 })
  const eventId = 'ev_wire_0000000000000000'
  const options = {
    path: `${url.pathname}?event=${eventId}&event_type=charge.created`,
    method: 'POST' as const,
    headers: signature === 'signed' ? signedDeliveryHeaders(eventId) : unsignedDeliveryHeaders,
    body,
  }
  const ignore = () => {}
  const handler = { onRequestStart: ignore, onResponseError: ignore }
  return {
    post: () => pool.dispatch(options, handler),
    close: () => pool.close(),
  }
}

/**
 * A merchant receiver answering every delivery 204 at once, so deliveries finish during the run;
 * `received()` counts the deliveries it has answered.
 */
export async function startDeliveryReceiver(): Promise<{
  url: string
  received(): number
  close(): Promise<void>
}> {
  let received = 0
  const server = await startBareServer((request, response) => {
    request.resume()
    request.on('end', () => {
      received++
      response.writeHead(204)
      response.end()
    })
  })
  return { url: `${server.url}/events`, received: () => received, close: server.close }
}
