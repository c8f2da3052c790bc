import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { authorization } from '@chargekit/sandbox/testing'

export const account = { accountId: 'acct_local', privateKey: 'sk_local' }
const expectedAuthorization = authorization(account.accountId, account.privateKey)

/**
 * A small stand-in for the service's GET /v2/events/{id}: Basic auth, full-form events the
 * schemas accept, and switches to make it fail. The adapter tests use it with the real client
 * so they control every event and every failure; the end-to-end tests use the real sandbox.
 */
export interface EventsServer {
  /** The origin to give the client as `baseUrl`. */
  url: string
  /** Stores a new charge-family (or unknown-type) event and returns its id. */
  add(type: string): string
  /** How many GETs each event id received. */
  fetches: Map<string, number>
  /** The next `count` GETs answer `status` with an error body. */
  failNext(status: number, count?: number): void
  close(): Promise<void>
}

export async function startEventsServer(): Promise<EventsServer> {
  const events = new Map<string, object>()
  const fetches = new Map<string, number>()
  let failure: { status: number; count: number } | undefined
  let sequence = 0

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume()
    const reply = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_local' })
      response.end(JSON.stringify(body))
    }
    if (request.headers.authorization !== expectedAuthorization) {
      response.setHeader('www-authenticate', 'Basic')
      return reply(401, { message: 'Wrong credentials', failure_code: '05.03.0002' })
    }
    const match = /^\/v2\/events\/([^/?]+)$/.exec(request.url ?? '')
    if (request.method !== 'GET' || !match) return reply(404, { message: 'Not found' })
    const id = decodeURIComponent(match[1] as string)
    fetches.set(id, (fetches.get(id) ?? 0) + 1)
    if (failure && failure.count > 0) {
      failure.count--
      return reply(failure.status, { message: 'Injected failure', failure_code: '99.01.0000' })
    }
    const event = events.get(id)
    if (!event) return reply(404, { message: `No event ${id}` })
    reply(200, event)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    add(type) {
      sequence++
      const id = `ev_local${sequence}`
      events.set(id, fullEvent(id, type, `ch_local${sequence}`))
      return id
    },
    fetches,
    failNext(status, count = 1) {
      failure = { status, count }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function fullEvent(id: string, type: string, chargeId: string) {
  const at = new Date().toISOString()
  return {
    id,
    type,
    type_label: type,
    created_at: at,
    object_id: chargeId,
    result_status: 0,
    retries_log: [],
    dismissed_at: null,
    delivery_status: 'pending',
    next_attempt_at: null,
    charge: {
      id: chargeId,
      charge_type: 'card_onetime',
      charge_type_label: 'Card one-time',
      amount: 25.5,
      currency: 'EUR',
      events_url: 'https://shop.example/webhooks',
      redirect_url: '',
      metadata: { order_id: `order-${chargeId}` },
      instrument_params: null,
      channels: null,
      confirmed: type !== 'charge.created',
      external_ids: null,
      external: false,
      failure_code: type === 'charge.error' ? '02.01.0000' : null,
      failure_description: type === 'charge.error' ? 'Soft decline' : null,
      created_at: at,
      updated_at: at,
      expires_at: null,
      request_log: {
        ip_address: '127.0.0.1',
        country: 'ES',
        user_agent: 'events-server',
        library_version: null,
      },
    },
  }
}
