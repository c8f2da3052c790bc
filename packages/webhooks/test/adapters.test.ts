import { createServer } from 'node:http'
import { createClient } from '@chargekit/client'
import {
  createMemoryDeliveryStore,
  createNodeMiddleware,
  createWebhooks,
  type WebhooksOptions,
} from '@chargekit/webhooks'
import { createAdaptorServer } from '@hono/node-server'
import express from 'express'
import Fastify, { type FastifyInstance } from 'fastify'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { account, type EventsServer, startEventsServer } from './support/events-server'
import {
  listen,
  type PostOptions,
  postDelivery,
  startNodeServer,
  type TestServer,
} from './support/http'

let events: EventsServer
const closers: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  events = await startEventsServer()
})
afterAll(async () => {
  await Promise.all(closers.map((close) => close()))
  await events.close()
})

/** A receiver that records which event ids its onAny handler saw. */
function receiver(options: Partial<WebhooksOptions> = {}) {
  const webhooks = createWebhooks({
    client: createClient({ ...account, baseUrl: events.url, maxRetries: 0 }),
    ...options,
  })
  const seen: string[] = []
  webhooks.onAny((event) => void seen.push(event.id))
  return { webhooks, seen }
}

async function serve(server: Promise<TestServer>) {
  const started = await server
  closers.push(started.close)
  return started.url
}

async function serveFastify(app: FastifyInstance) {
  closers.push(() => app.close())
  return app.listen({ port: 0, host: '127.0.0.1' })
}

/** Delivers one fresh event in each given way; each must run its handler exactly once. */
async function expectDelivered(url: string, { seen }: { seen: string[] }, ways: PostOptions[]) {
  for (const way of ways) {
    const id = events.add('charge.created')
    const answer = await postDelivery(url, { id, type: 'charge.created' }, way)
    expect({ way, status: answer.status, body: answer.body }).toMatchObject({
      way,
      status: 200,
      body: { received: true, status: 'processed', id },
    })
    const again = await postDelivery(url, { id, type: 'charge.created' }, way)
    expect(again.body?.status).toBe('duplicate')
    expect(seen.filter((seenId) => seenId === id)).toEqual([id])
  }
}

const everyEncoding: PostOptions[] = [
  { as: 'json', query: true },
  { as: 'json' },
  { as: 'form' },
  { as: 'none' },
  { as: 'json', query: true, signed: true },
]

describe('createNodeMiddleware on node:http', () => {
  it('receives every encoding, answers other paths 404 and other methods 405', async () => {
    const hooks = receiver()
    const url = await serve(
      startNodeServer(createNodeMiddleware(hooks.webhooks, { path: '/webhooks/' })),
    )
    await expectDelivered(`${url}/webhooks`, hooks, everyEncoding.slice(0, 4))
    const other = await fetch(`${url}/elsewhere`, { method: 'POST' })
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({
      error: { code: 'not_found', message: 'Deliveries are received at POST /webhooks.' },
    })
    const get = await fetch(`${url}/webhooks`)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
  })

  it('chains to next() for other paths: one endpoint per event type, one shared store', async () => {
    const store = createMemoryDeliveryStore()
    const client = createClient({ ...account, baseUrl: events.url, maxRetries: 0 })
    const created = createWebhooks({ client, store })
    const confirmed = createWebhooks({ client, store })
    const ran: string[] = []
    created.on('charge.created', (event) => void ran.push(`created:${event.id}`))
    confirmed.on('charge.confirmed', (event) => void ran.push(`confirmed:${event.id}`))
    const forCreated = createNodeMiddleware(created, { path: '/hooks/charge-created' })
    const forConfirmed = createNodeMiddleware(confirmed, { path: '/hooks/charge-confirmed' })
    const url = await serve(
      startNodeServer((req, res) => forCreated(req, res, () => forConfirmed(req, res))),
    )
    const id = events.add('charge.created')
    // Misrouted first: acknowledged there, but not claimed, so the right endpoint still runs it.
    const misrouted = await postDelivery(`${url}/hooks/charge-confirmed`, {
      id,
      type: 'charge.created',
    })
    expect(misrouted.body?.status).toBe('ignored')
    const routed = await postDelivery(`${url}/hooks/charge-created`, { id, type: 'charge.created' })
    expect(routed.body?.status).toBe('processed')
    const confirmedId = events.add('charge.confirmed')
    const other = await postDelivery(`${url}/hooks/charge-confirmed`, {
      id: confirmedId,
      type: 'charge.confirmed',
    })
    expect(other.body?.status).toBe('processed')
    expect(ran).toEqual([`created:${id}`, `confirmed:${confirmedId}`])
  })

  it('answers 413 to an oversized body without buffering it', async () => {
    const hooks = receiver()
    const url = await serve(startNodeServer(createNodeMiddleware(hooks.webhooks)))
    const answer = await fetch(url, { method: 'POST', body: 'x'.repeat(200_000) })
    expect(answer.status).toBe(413)
    expect((await answer.json()).error.code).toBe('payload_too_large')
  })
})

describe('Express', () => {
  it('works with no body parser, with express.json(), express.urlencoded() and express.text()', async () => {
    const hooks = receiver()
    const middleware = createNodeMiddleware(hooks.webhooks)
    const app = express()
    app.post('/raw', middleware)
    app.post('/json', express.json(), middleware)
    app.post('/form', express.urlencoded({ extended: false }), middleware)
    app.post('/text', express.text({ type: '*/*' }), middleware)
    const url = await serve(listen(createServer(app)))
    for (const path of ['/raw', '/json', '/form', '/text']) {
      await expectDelivered(`${url}${path}`, hooks, everyEncoding.slice(0, 4))
    }
  })

  it('verifies signatures behind express.json(), with or without a kept raw body', async () => {
    const hooks = receiver({ secret: (await import('./support/http')).signingSecret })
    const middleware = createNodeMiddleware(hooks.webhooks, { path: '/webhooks' })
    const keepRaw = express.json({
      verify: (req, _res, buffer) => {
        ;(req as { rawBody?: Buffer }).rawBody = buffer
      },
    })
    const parsed = express()
    parsed.use(express.json())
    parsed.use(middleware)
    const kept = express()
    kept.use(keepRaw, middleware)
    for (const app of [parsed, kept]) {
      const url = await serve(listen(createServer(app)))
      await expectDelivered(`${url}/webhooks`, hooks, [{ as: 'json', query: true, signed: true }])
      const unsigned = await postDelivery(`${url}/webhooks`, {
        id: events.add('charge.created'),
        type: 'charge.created',
      })
      expect(unsigned.status).toBe(401)
    }
  })

  it('matches the full URL when mounted under a prefix, and hands other paths to next()', async () => {
    const hooks = receiver()
    const app = express()
    app.use('/api', createNodeMiddleware(hooks.webhooks, { path: '/api/webhooks' }))
    app.use((_req, res) => {
      res.status(418).send('next handler')
    })
    const url = await serve(listen(createServer(app)))
    await expectDelivered(`${url}/api/webhooks`, hooks, [{ as: 'json', query: true }])
    const other = await fetch(`${url}/api/other`, { method: 'POST' })
    expect(other.status).toBe(418)
  })
})

describe('Fastify', () => {
  it('works as a route handler after Fastify parsed the body (JSON, form, signed)', async () => {
    const hooks = receiver({ secret: (await import('./support/http')).signingSecret })
    const app = Fastify()
    // Fastify refuses form bodies (415) unless a parser is registered; keep them as text.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    )
    app.post('/webhooks', createNodeMiddleware(hooks.webhooks))
    const url = await serveFastify(app)
    await expectDelivered(`${url}/webhooks`, hooks, [
      { as: 'json', query: true, signed: true },
      { as: 'form', signed: true },
      { as: 'none', signed: true },
    ])
    const forged = await postDelivery(
      `${url}/webhooks`,
      { id: 'ev_nope', type: 'charge.created' },
      { signed: true },
    )
    expect(forged.status).toBe(401)
    expect(forged.body?.error.code).toBe('unknown_event')
  })

  it('reads the raw stream in an onRequest hook, before any parser', async () => {
    const hooks = receiver()
    const app = Fastify()
    const middleware = createNodeMiddleware(hooks.webhooks, { path: '/webhooks' })
    app.addHook('onRequest', async (request, reply) => {
      if (request.url.startsWith('/webhooks')) await middleware(request.raw, reply.hijack().raw)
    })
    app.get('/health', async () => ({ ok: true }))
    const url = await serveFastify(app)
    await expectDelivered(`${url}/webhooks`, hooks, everyEncoding.slice(0, 4))
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ ok: true })
  })
})

describe('Web standard handleRequest', () => {
  it('serves Hono routes, and answers with a fresh Headers object every time', async () => {
    const hooks = receiver()
    const app = new Hono()
    app.use(async (c, next) => {
      await next()
      c.res.headers.set('x-powered-by', 'hono') // a framework mutating the answer's headers
    })
    app.post('/webhooks', (c) => hooks.webhooks.handleRequest(c.req.raw))
    const url = await serve(listen(createAdaptorServer({ fetch: app.fetch }) as never))
    await expectDelivered(`${url}/webhooks`, hooks, everyEncoding.slice(0, 4))
    const id = events.add('charge.created')
    const first = await hooks.webhooks.handleRequest(
      new Request('http://shop.test/webhooks', {
        method: 'POST',
        body: JSON.stringify({ id, type: 'charge.created' }),
      }),
    )
    const second = await hooks.webhooks.handleRequest(
      new Request(`http://shop.test/webhooks?event=${id}&event_type=charge.created`, {
        method: 'POST',
      }),
    )
    expect(first.headers).not.toBe(second.headers)
    first.headers.set('x-mutated', '1')
    expect(second.headers.get('x-mutated')).toBeNull()
    expect(await second.json()).toMatchObject({ status: 'duplicate' })
  })

  it('works unbound as a fetch handler (Bun, Deno, Workers, Next.js `export const POST`)', async () => {
    const hooks = receiver()
    const { handleRequest } = hooks.webhooks
    const url = await serve(listen(createAdaptorServer({ fetch: handleRequest }) as never))
    await expectDelivered(url, hooks, everyEncoding.slice(0, 4))
  })

  it('stops reading a chunked body past the limit and names a consumed body', async () => {
    const hooks = receiver()
    const chunk = new TextEncoder().encode('x'.repeat(16_384))
    let pulls = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++
        controller.enqueue(chunk)
      },
    })
    const request = new Request('http://shop.test/webhooks', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit)
    const answer = await hooks.webhooks.handleRequest(request)
    expect(answer.status).toBe(413)
    expect(pulls).toBeLessThan(10)

    const consumed = new Request('http://shop.test/webhooks', { method: 'POST', body: '{}' })
    await consumed.text()
    const errors: string[] = []
    hooks.webhooks.onError((error) => void errors.push(error.message))
    expect((await hooks.webhooks.handleRequest(consumed)).status).toBe(500)
    expect(errors[0]).toMatch(/already read/)
  })
})
