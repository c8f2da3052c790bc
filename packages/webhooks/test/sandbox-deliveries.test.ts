import { createServer } from 'node:http'
import { type ChargekitClient, PaymentError } from '@chargekit/client'
import type { Processor } from '@chargekit/sandbox'
import { startTestSandbox, type TestSandbox, testCard } from '@chargekit/sandbox/testing'
import {
  type CompactEvent,
  type Event,
  type EventType,
  eventTypeList,
  isKnownEvent,
  toCompactEvent,
} from '@chargekit/schemas'
import { createNodeMiddleware, createWebhooks } from '@chargekit/webhooks'
import { createAdaptorServer } from '@hono/node-server'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen, postDelivery, startNodeServer, type TestServer } from './support/http'
import { inProcessClient } from './support/in-process-client'

const signingSecret = `whsec_${btoa('sandbox-to-shop signing key, e2e')}`

/** A plug-in whose voids stay pending a moment: the built-in processors void at once. */
const slowVoids: Processor = {
  name: 'slow_voids',
  chargeTypes: ['card_recurring'],
  descriptor: 'CHARGEKIT*VOIDS',
  authorize: () => ({ status: 'succeeded' }),
  capture: () => ({ status: 'succeeded' }),
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({
    status: 'pending',
    awaiting: 'processor',
    afterMs: 1_000,
    outcome: { status: 'succeeded' },
  }),
}

let sandbox: TestSandbox
let client: ChargekitClient
const closers: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  // Deliveries go over HTTP to the shop's receivers; the client's own calls, including the
  // receivers' event fetches, go to the sandbox in-process.
  sandbox = await startTestSandbox({ timeScale: 0.001, signingSecret, processors: [slowVoids] })
  client = inProcessClient(sandbox)
})
afterAll(async () => {
  await Promise.all(closers.map((close) => close()))
  await sandbox?.close()
})

async function serve(server: Promise<TestServer>) {
  const started = await server
  closers.push(started.close)
  return started.url
}

/**
 * One handler per event type: each records, under the event id, the type it was registered for,
 * so an event handed to another type's handler shows. `calls` counts every invocation, so a
 * forged delivery that ran anything would show.
 */
function recordingReceiver(options: { flaky?: (event: Event) => boolean } = {}) {
  const webhooks = createWebhooks({ client, secret: signingSecret })
  const completed = new Map<string, string[]>()
  const failedOnce = new Set<string>()
  /** The compact body each event's delivery carried, as the handler saw it. */
  const compacts = new Map<string, CompactEvent | undefined>()
  let calls = 0
  for (const type of eventTypeList) {
    webhooks.on(type, (event, context) => {
      calls++
      compacts.set(event.id, context.compact)
      if (options.flaky?.(event) && !failedOnce.has(event.id)) {
        failedOnce.add(event.id)
        throw new Error(`first delivery of ${event.id} fails on purpose`)
      }
      completed.set(event.id, [...(completed.get(event.id) ?? []), type])
    })
  }
  return {
    webhooks,
    completed,
    failedOnce,
    compacts,
    calls: () => calls,
  }
}

/** Every event the sandbox recorded for these charges. */
async function eventsOf(chargeIds: readonly string[]): Promise<Event[]> {
  const events: Event[] = []
  for (const charge of chargeIds) {
    for await (const event of client.events.list({ charge, per_page: 100 })) events.push(event)
  }
  return events
}

/** Waits until the sandbox has stopped producing events for these charges and delivered all. */
async function settledEvents(chargeIds: readonly string[], count?: number) {
  let events: Event[] = []
  await expect
    .poll(
      async () => {
        events = await eventsOf(chargeIds)
        const undelivered = events.filter((event) => event.delivery_status !== 'delivered')
        return {
          enough: count === undefined || events.length >= count,
          undelivered: undelivered.length,
        }
      },
      { timeout: 20_000, interval: 100 },
    )
    .toEqual({ enough: true, undelivered: 0 })
  return events
}

async function oneTimeFlow(eventsUrl: string, extra: { channels?: string[]; order: string }) {
  const charge = await client.charges.create({
    charge_type: 'card_onetime',
    amount: 40,
    currency: 'EUR',
    events_url: eventsUrl,
    metadata: { order_id: extra.order },
    ...(extra.channels ? { channels: extra.channels } : {}),
  })
  await client.instruments.create(testCard(charge.id))
  return charge.id
}

/**
 * Runs a step the processor may decline: the failed object persists and emits its event either
 * way (the coverage check at the end proves it). Returns the declined object's id, if any.
 */
async function mayDecline(step: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await step()
    return undefined
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error
    return error.objectId
  }
}

describe('the sandbox delivering to createNodeMiddleware on node:http', () => {
  let receiver: ReturnType<typeof recordingReceiver>
  let url: string

  beforeAll(async () => {
    receiver = recordingReceiver({
      flaky: (event) =>
        typeof event.charge?.metadata === 'object' && event.charge.metadata.order_id === 'flaky',
    })
    url = `${await serve(startNodeServer(createNodeMiddleware(receiver.webhooks, { path: '/webhooks' })))}/webhooks`
  })

  /** The events of a one-time flow (5), once the sandbox delivered them and they were handled. */
  async function handledEventsOf(chargeId: string) {
    const events = await settledEvents([chargeId], 5)
    await expect.poll(() => events.every((event) => receiver.completed.has(event.id))).toBe(true)
    return events
  }

  it('brings every event type of a full lifecycle to its typed handler exactly once', async () => {
    // A receiver of its own, so `completed` holds this lifecycle's events and nothing else.
    const lifecycle = recordingReceiver()
    const url = `${await serve(startNodeServer(createNodeMiddleware(lifecycle.webhooks, { path: '/webhooks' })))}/webhooks`
    const chargeIds: string[] = []
    const track = (id: string) => {
      chargeIds.push(id)
      return id
    }
    const eur = (amount: number) => ({ amount, currency: 'EUR', events_url: url })

    // Happy path on no_processor: authorize + capture, refund, settle, dispute won.
    const paid = await client.charges.create({
      charge_type: 'card_onetime',
      ...eur(40),
      channels: ['card_onetime_no_processor'],
    })
    track(paid.id)
    await client.instruments.create(testCard(paid.id))
    const [payment] = (await client.payments.list({ per_page: 100 })).collection.filter(
      (p) => p.charge?.id === paid.id,
    )
    if (!payment) throw new Error('no payment was captured on creation')
    await client.payments.refund(payment.id, { amount: 10 })
    await client.testHelpers.settle()
    const dispute = await client.testHelpers.dispute(payment.id, { amount: 30 })
    await client.testHelpers.settleDispute(dispute.id, { outcome: 'won' })

    // Authorize only, then void.
    const voided = await client.charges.create({
      charge_type: 'card_recurring',
      ...eur(15),
      channels: ['card_recurring_no_processor'],
    })
    const instrument = await client.instruments.create(testCard(track(voided.id)))
    await client.instruments.reverse(instrument.id)

    // Every element failing, by amount (error testing by amount: the integer part is the
    // code without dots, the decimals name the element: .10 charge … .50 reversal).
    const failing = (amount: number, type = 'card_onetime') =>
      client.charges.create({
        charge_type: type,
        ...eur(amount),
        channels: [`${type}_no_processor`],
      })
    const failedCharge = await mayDecline(() => failing(2010000.1)) // 02.01.0000, charge
    track(failedCharge ?? 'ch_missing')
    for (const amount of [3030000.2, 6020000.2, 2030000.3]) {
      // 03.03.0000 and 06.02.0000 on the instrument (the second is a risk rule), 02.03.0000 on the
      // capture made at authorization.
      const charge = await failing(amount)
      await mayDecline(() => client.instruments.create(testCard(track(charge.id))))
    }
    const refundFails = await failing(4010000.4) // 04.01.0000, refund
    await client.instruments.create(testCard(track(refundFails.id)))
    const refundable = (await client.payments.list({ per_page: 100 })).collection.find(
      (p) => p.charge?.id === refundFails.id,
    )
    await mayDecline(() => client.payments.refund(refundable?.id ?? 'pa_missing', { amount: 1 }))
    const voidFails = await failing(4020000.5, 'card_recurring') // 04.02.0000, reversal
    const unvoidable = await client.instruments.create(testCard(track(voidFails.id)))
    await mayDecline(() => client.instruments.reverse(unvoidable.id))

    // 3DS and asynchronous captures and refunds on the simulated acquirer.
    const secure = await client.charges.create({
      charge_type: 'card_onetime',
      ...eur(60),
      channels: ['card_onetime_simulated_acquirer'],
      instrument_params: { enable3ds: true },
    })
    const challenged = await client.instruments.create(testCard(track(secure.id)))
    expect(challenged.status).toBe('pending')
    await completeChallenge(challenged.redirect?.url ?? undefined)
    let pending: { id: string } | undefined
    await expect
      .poll(
        async () => {
          pending = (await client.payments.list({ per_page: 100 })).collection.find(
            (p) => p.charge?.id === secure.id && p.status === 'success',
          )
          return pending !== undefined
        },
        { timeout: 10_000 },
      )
      .toBe(true)
    await client.payments.refund(pending?.id ?? 'pa_missing', { amount: 20 })

    // An asynchronous void, through a processor plug-in.
    const slow = await client.charges.create({
      charge_type: 'card_recurring',
      ...eur(12),
      channels: ['card_recurring_slow_voids'],
    })
    const slowInstrument = await client.instruments.create(testCard(track(slow.id)))
    await client.instruments.reverse(slowInstrument.id)

    const events = await settledEvents(chargeIds)
    await expect.poll(() => lifecycle.completed.size, { timeout: 10_000 }).toBe(events.length)
    for (const event of events) {
      expect({ id: event.id, handled: lifecycle.completed.get(event.id) }).toEqual({
        id: event.id,
        handled: [event.type],
      })
      // Handlers also see the compact form the sandbox delivered: the fetched event's.
      if (!isKnownEvent(event)) throw new Error(`unexpected event type ${event.type}`)
      expect(lifecycle.compacts.get(event.id)).toEqual(toCompactEvent(event))
    }
    const types = new Set(events.map((event) => event.type))
    expect([...eventTypeList].filter((type: EventType) => !types.has(type))).toEqual([])
  }, 60_000)

  it('gets the event again from the sandbox retry after a handler throws, then succeeds once', async () => {
    const events = await handledEventsOf(
      await oneTimeFlow(url, { order: 'flaky', channels: ['card_onetime_no_processor'] }),
    )
    for (const event of events) {
      expect(receiver.failedOnce.has(event.id)).toBe(true)
      expect(receiver.completed.get(event.id)).toEqual([event.type])
      expect(event.result_status).toBe(200)
      // One automatic retry after the 500, answered 200.
      expect(event.retries_log.map((entry) => entry.result_status)).toEqual([200])
    }
  })

  it('acknowledges redeliveries, sequential or concurrent, without running handlers again', async () => {
    const [event] = await handledEventsOf(
      await oneTimeFlow(url, { order: 'redelivered', channels: ['card_onetime_no_processor'] }),
    )
    if (!event) throw new Error('no event to redeliver')
    const calls = receiver.calls()
    await client.events.redeliver(event.id)
    await Promise.all(Array.from({ length: 6 }, () => client.events.redeliver(event.id)))
    const after = await client.events.retrieve(event.id)
    expect(after.retries_log.slice(0, 7).map((entry) => entry.result_status)).toEqual(
      Array(7).fill(200),
    )
    expect(receiver.calls()).toBe(calls)
    expect(receiver.completed.get(event.id)).toEqual([event.type])
  })

  it('rejects forged deliveries (unknown id, wrong type, bad signature) and runs nothing', async () => {
    const [event] = await handledEventsOf(
      await oneTimeFlow(url, { order: 'forged', channels: ['card_onetime_no_processor'] }),
    )
    if (!event) throw new Error('no event to forge from')
    const calls = receiver.calls()
    const wrongType = event.type === 'charge.created' ? 'payment.success' : 'charge.created'
    const unknown = await postDelivery(
      url,
      { id: 'ev_forged000', type: event.type },
      { signed: signingSecret, query: true },
    )
    const mismatched = await postDelivery(
      url,
      { id: event.id, type: wrongType },
      { signed: signingSecret, query: true },
    )
    const badSignature = await postDelivery(
      url,
      { id: event.id, type: event.type },
      { signed: `whsec_${btoa('guessed')}` },
    )
    const unsigned = await postDelivery(url, { id: event.id, type: event.type }, { query: true })
    expect(
      [unknown, mismatched, badSignature, unsigned].map((answer) => [
        answer.status,
        answer.body?.error.code,
      ]),
    ).toEqual([
      [401, 'unknown_event'],
      [401, 'event_mismatch'],
      [401, 'invalid_signature'],
      [401, 'invalid_signature'],
    ])
    expect(receiver.calls()).toBe(calls)
  })
})

describe('a duplicate delivered while the first is still running', () => {
  it('is refused with 409 and the handler runs once', async () => {
    const webhooks = createWebhooks({ client, secret: signingSecret })
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let started!: (id: string) => void
    const running = new Promise<string>((resolve) => {
      started = resolve
    })
    let runs = 0
    webhooks.on('charge.created', async (event) => {
      runs++
      started(event.id)
      await released
    })
    const url = await serve(startNodeServer(createNodeMiddleware(webhooks)))
    const charge = await client.charges.create({
      charge_type: 'card_onetime',
      amount: 9,
      currency: 'EUR',
      events_url: url,
    })
    const eventId = await running // the sandbox's first attempt is now waiting on the handler
    const duplicates = await Promise.all(
      Array.from({ length: 4 }, () => client.events.redeliver(eventId)),
    )
    expect(duplicates.map((event) => event.retries_log[0]?.result_status)).toEqual([
      409, 409, 409, 409,
    ])
    release()
    const [created] = (await settledEvents([charge.id], 2)).filter((event) => event.id === eventId)
    expect(created?.result_status).toBe(200)
    expect((await client.events.redeliver(eventId)).retries_log[0]?.result_status).toBe(200)
    expect(runs).toBe(1)
  })
})

describe('Express, Fastify and Hono receiving from the sandbox', () => {
  async function expectFlowHandledOnce(url: string, completed: Map<string, string[]>) {
    const chargeId = await oneTimeFlow(url, {
      order: `framework-${url}`,
      channels: ['card_onetime_no_processor'],
    })
    const events = await settledEvents([chargeId], 5)
    await expect.poll(() => events.every((event) => completed.has(event.id))).toBe(true)
    for (const event of events) expect(completed.get(event.id)).toEqual([event.type])
  }

  it('Express with express.json() before the middleware', async () => {
    const { webhooks, completed } = recordingReceiver()
    const app = express()
    app.post('/hooks', express.json(), createNodeMiddleware(webhooks))
    const url = await serve(listen(createServer(app)))
    await expectFlowHandledOnce(`${url}/hooks`, completed)
  })

  it('Fastify route after its JSON parser', async () => {
    const { webhooks, completed } = recordingReceiver()
    const app = Fastify()
    app.post('/hooks', createNodeMiddleware(webhooks))
    closers.push(() => app.close())
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    await expectFlowHandledOnce(`${url}/hooks`, completed)
  })

  it('Hono route calling handleRequest', async () => {
    const { webhooks, completed } = recordingReceiver()
    const app = new Hono()
    app.post('/hooks', (c) => webhooks.handleRequest(c.req.raw))
    const url = await serve(listen(createAdaptorServer({ fetch: app.fetch }) as never))
    await expectFlowHandledOnce(`${url}/hooks`, completed)
  })
})

/** The customer opens the sandbox's 3DS page and approves the challenge with its form. */
async function completeChallenge(redirectUrl: string | undefined) {
  if (!redirectUrl) throw new Error('a pending 3DS instrument must carry a redirect url')
  const page = await (await fetch(redirectUrl)).text()
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1]
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1]
  if (action === undefined || token === undefined) throw new Error('no challenge form on the page')
  const answer = await fetch(new URL(action, redirectUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome: 'authorize', token }),
    redirect: 'manual',
  })
  expect(answer.status).toBeLessThan(400)
}
