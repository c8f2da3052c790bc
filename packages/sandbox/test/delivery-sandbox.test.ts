import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { compactEventSchema } from '@chargekit/schemas'
import { Webhook } from 'standardwebhooks'
import { it as base, describe } from 'vitest'
import { resolveDeliverySettings } from '../src/delivery/delivery-options'
import { type SandboxLogger, startSandbox } from '../src/index'
import { createMemoryWorkQueue } from '../src/storage/memory-work-queue'
import {
  authorization,
  eventually,
  type ReceiverRule,
  startReceiver,
  startTestSandbox,
  TestClock,
  testCard,
} from '../src/testing/index'
import { onEachStore } from './store-under-test'

onEachStore({ embedded: 'without PostgreSQL' }, (freshStoreState) => {
  // End to end: events recorded by the sandbox API, delivered by the engine to real receivers,
  // and the delivery log read back over GET /v2/events. Each test has a sandbox (on a SQL store, a
  // database) and a receiver of its own, so the tests run at once: they mostly wait, for
  // deliveries and for the database.

  interface EventBody {
    id: string
    type: string
    created_at: string
    result_status: number
    retries_log: { created_at: string; result_status: number }[]
    delivery_status: string
    next_attempt_at: string | null
  }

  /** Compresses the default schedule (about 28 h) to about 1 s. */
  const fast = 0.00001
  const asDefaultAccount = authorization('acct_sandbox', 'sk_sandbox')

  interface SetUpOptions {
    timeScale?: number
    signingSecret?: string
    deliveryTimeoutMs?: number
    clock?: TestClock
    logger?: SandboxLogger
  }

  /** A receiver answering by `rule` and a sandbox delivering to it, both stopped after the test. */
  async function startMerchantAndSandbox(
    onTestFinished: (stop: () => Promise<void>) => void,
    rule: ReceiverRule,
    options: SetUpOptions = {},
  ) {
    const merchant = await startReceiver(rule)
    onTestFinished(() => merchant.stop())
    const harness = await startTestSandbox({
      timeScale: options.timeScale ?? fast,
      ...options,
      state: freshStoreState,
    })
    onTestFinished(() => harness.close())
    const { sandbox } = harness

    async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${sandbox.apiUrl}${path}`, {
        method,
        headers: { authorization: asDefaultAccount, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await response.text()
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
      return JSON.parse(text) as T
    }

    const createCharge = (eventsUrl = `${merchant.url}/hooks`) =>
      api<{ id: string }>('POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 25,
        currency: 'EUR',
        events_url: eventsUrl,
        metadata: { order_id: 'order_1' },
      })
    const event = (id: string) => api<EventBody>('GET', `/events/${id}`)
    const chargeEvents = async (chargeId: string) =>
      (await api<{ collection: EventBody[] }>('GET', `/events?charge=${chargeId}&per_page=100`))
        .collection
    /** Polls the event until `done` holds for it (the engine reports asynchronously). */
    async function eventWhen(
      id: string,
      done: (event: EventBody) => boolean,
      limitMs = 15_000,
    ): Promise<EventBody> {
      let latest = await event(id)
      const deadline = Date.now() + limitMs
      while (!done(latest)) {
        if (Date.now() > deadline) throw new Error(`event ${id} stuck at ${JSON.stringify(latest)}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
        latest = await event(id)
      }
      return latest
    }

    return { merchant, sandbox, api, createCharge, event, chargeEvents, eventWhen }
  }

  /** Tests given `setUp`, whose receiver and sandbox are stopped when the test ends. */
  const it = base.extend<{
    setUp: (
      rule: ReceiverRule,
      options?: SetUpOptions,
    ) => ReturnType<typeof startMerchantAndSandbox>
  }>({
    setUp: async ({ onTestFinished }, use) => {
      await use((rule, options) => startMerchantAndSandbox(onTestFinished, rule, options))
    },
  })

  const isNewestFirst = (log: EventBody['retries_log']) =>
    log.every(
      (entry, index) => index === 0 || (log[index - 1]?.created_at ?? '') >= entry.created_at,
    )

  describe.concurrent('delivery through startSandbox', () => {
    it('delivers each event of a charge once, and records 200', async ({ expect, setUp }) => {
      const { merchant, createCharge, chargeEvents, eventWhen } = await setUp(() => 200)

      const charge = await createCharge()
      const events = (await chargeEvents(charge.id)).reverse()
      await merchant.until((received) => received.length === events.length)
      const settled = await Promise.all(
        events.map(({ id }) => eventWhen(id, (event) => event.delivery_status === 'delivered')),
      )

      expect(events.map(({ type }) => type)).toEqual(['charge.created', 'charge.confirmed'])
      // No order between a charge's events, as from the production service.
      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id)
      expect(merchant.received.map(({ id, type }) => ({ id, type })).sort(byId)).toEqual(
        events.map(({ id, type }) => ({ id, type })).sort(byId),
      )
      for (const delivery of merchant.received) {
        expect(delivery.url.pathname).toBe('/hooks')
        expect(delivery.url.searchParams.get('event')).toBe(delivery.id)
        expect(delivery.url.searchParams.get('event_type')).toBe(delivery.type)
      }
      for (const event of settled) {
        expect(event).toMatchObject({ result_status: 200, retries_log: [], next_attempt_at: null })
      }
    })

    it('retries 500, 500, 200: three attempts, result_status 200, two log entries newest first', async ({
      expect,
      setUp,
    }) => {
      let createdAttempts = 0
      const { merchant, createCharge, chargeEvents, eventWhen } = await setUp((delivery) =>
        delivery.type === 'charge.created' && ++createdAttempts <= 2 ? 500 : 200,
      )

      const charge = await createCharge()
      const created = (await chargeEvents(charge.id)).find(({ type }) => type === 'charge.created')
      const event = await eventWhen(created?.id ?? '', (e) => e.delivery_status === 'delivered')

      expect(merchant.received.filter(({ id }) => id === event.id)).toHaveLength(3)
      expect(event.result_status).toBe(200)
      expect(event.retries_log.map(({ result_status }) => result_status)).toEqual([200, 500])
      expect(isNewestFirst(event.retries_log)).toBe(true)
      expect(event.next_attempt_at).toBeNull()
    })

    it('records a 302 as a failing delivery with a retry scheduled', async ({ expect, setUp }) => {
      const { merchant, createCharge, chargeEvents, eventWhen } = await setUp(
        () => (response) => {
          response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' })
          response.end()
        },
        { timeScale: 1 },
      )

      const charge = await createCharge()
      const [first] = (await chargeEvents(charge.id)).reverse()
      const event = await eventWhen(first?.id ?? '', (e) => e.result_status !== 0)

      expect(event.result_status).toBe(302)
      expect(event.delivery_status).toBe('failing')
      expect(event.next_attempt_at).not.toBeNull()
      expect(merchant.received.filter(({ id }) => id === event.id)).toHaveLength(1)
    })

    it('gets the event to a receiver that was down, on a retry once it is back', async ({
      expect,
      setUp,
    }) => {
      // Retries 0.5 ms, 30 ms, 180 ms … apart: the receiver is back long before they run out.
      const { merchant, createCharge, chargeEvents, eventWhen } = await setUp(() => 200, {
        timeScale: 0.0001,
      })
      await merchant.stop()

      const charge = await createCharge()
      const [first] = (await chargeEvents(charge.id)).reverse()
      const failing = await eventWhen(first?.id ?? '', (e) => e.delivery_status === 'failing')
      await merchant.restart()
      const delivered = await eventWhen(first?.id ?? '', (e) => e.delivery_status === 'delivered')

      expect(failing.result_status).toBe(0)
      expect(delivered.result_status).toBe(200)
      expect(delivered.retries_log[0]?.result_status).toBe(200)
      expect(delivered.retries_log.length).toBeGreaterThanOrEqual(1)
      expect(merchant.received.some(({ id }) => id === first?.id)).toBe(true)
    })

    it('delivers what waited for a receiver that was down as soon as it answers again', async ({
      expect,
      setUp,
    }) => {
      // The clock stands still: the retries, 5 s after each failure, never come due. Only the
      // receiver's first 2xx after the outage, which pulls them forward, can deliver them.
      let down = true
      const clock = new TestClock()
      const { createCharge, chargeEvents, eventWhen } = await setUp(() => (down ? 503 : 200), {
        timeScale: 1,
        clock,
      })
      const waiting = []
      for (const charge of [await createCharge(), await createCharge()]) {
        waiting.push(...(await chargeEvents(charge.id)))
      }
      const failing = await Promise.all(
        waiting.map(({ id }) => eventWhen(id, (event) => event.delivery_status === 'failing')),
      )

      down = false
      const after = await createCharge()
      const delivered = await Promise.all(
        [...waiting, ...(await chargeEvents(after.id))].map(({ id }) =>
          eventWhen(id, (event) => event.delivery_status === 'delivered'),
        ),
      )

      for (const event of failing) {
        expect(event.result_status).toBe(503)
        expect(Date.parse(event.next_attempt_at ?? '')).toBeGreaterThan(clock.now())
      }
      for (const event of delivered.slice(0, waiting.length)) {
        expect(event.retries_log.map(({ result_status }) => result_status)).toEqual([200])
      }
    })

    it('redeliver sends the event again now and appends to retries_log', async ({
      expect,
      setUp,
    }) => {
      const { merchant, api, createCharge, chargeEvents, eventWhen } = await setUp(() => 200)
      const charge = await createCharge()
      const [first] = (await chargeEvents(charge.id)).reverse()
      await eventWhen(first?.id ?? '', (e) => e.delivery_status === 'delivered')

      const redelivered = await api<EventBody>('POST', `/events/${first?.id}/redeliver`)
      const again = await api<EventBody>('POST', `/events/${first?.id}/redeliver`)

      expect(redelivered.retries_log).toHaveLength(1)
      expect(again.retries_log).toHaveLength(2)
      expect(again.retries_log.map(({ result_status }) => result_status)).toEqual([200, 200])
      expect(isNewestFirst(again.retries_log)).toBe(true)
      expect(again).toMatchObject({ result_status: 200, delivery_status: 'delivered' })
      expect(merchant.received.filter(({ id }) => id === first?.id)).toHaveLength(3)
    })

    it('keeps a delivered event delivered when a later redelivery fails, logging the failure', async ({
      expect,
      setUp,
    }) => {
      let refuse = false
      const { api, createCharge, chargeEvents, eventWhen } = await setUp(() => (refuse ? 500 : 200))
      const charge = await createCharge()
      const [first] = (await chargeEvents(charge.id)).reverse()
      await eventWhen(first?.id ?? '', (e) => e.delivery_status === 'delivered')

      refuse = true
      const redelivered = await api<EventBody>('POST', `/events/${first?.id}/redeliver`)
      const listed = await api<{ collection: EventBody[] }>(
        'GET',
        `/events?charge=${charge.id}&delivery_status=delivered&result_status=500`,
      )

      expect(redelivered).toMatchObject({
        delivery_status: 'delivered',
        result_status: 500,
        next_attempt_at: null,
      })
      expect(redelivered.retries_log.map(({ result_status }) => result_status)).toEqual([500])
      expect(listed.collection.map(({ id }) => id)).toEqual([first?.id])
    })

    it('shows an event redelivered while its first attempt is under way as pending, and that attempt is no retry', async ({
      expect,
      setUp,
    }) => {
      // charge.confirmed's first attempt hangs unanswered; the redelivery made meanwhile fails.
      const held: ServerResponse[] = []
      const { api, createCharge, chargeEvents, eventWhen } = await setUp((delivery) => {
        if (delivery.type !== 'charge.confirmed') return 200
        return held.length === 0 ? (response) => held.push(response) : 500
      })
      const charge = await createCharge()
      const confirmed = (await chargeEvents(charge.id)).find(
        ({ type }) => type === 'charge.confirmed',
      )
      await eventually(() => held.length === 1)

      const redelivered = await api<EventBody>('POST', `/events/${confirmed?.id}/redeliver`)
      for (const response of held) response.writeHead(200).end()
      const delivered = await eventWhen(
        confirmed?.id ?? '',
        (e) => e.delivery_status === 'delivered',
      )

      // While the first attempt is under way, and still after the failed redelivery: it is due.
      expect(confirmed?.next_attempt_at).toBe(confirmed?.created_at)
      expect(redelivered).toMatchObject({
        delivery_status: 'pending',
        result_status: 500,
        next_attempt_at: confirmed?.created_at,
      })
      expect(redelivered.retries_log.map(({ result_status }) => result_status)).toEqual([500])
      expect(delivered.result_status).toBe(200)
      expect(delivered.retries_log.map(({ result_status }) => result_status)).toEqual([500])
      expect(delivered.next_attempt_at).toBeNull()
    })

    it('keeps a successful redelivery’s result when the automatic attempt in flight then fails', async ({
      expect,
      setUp,
    }) => {
      // charge.created: the first attempt is held, the redelivery answered 200, the next one 500.
      const held: ServerResponse[] = []
      let createdAnswers = 0
      const logged: string[] = []
      const logger: SandboxLogger = {
        info: (message) => logged.push(message),
        warn: () => {},
        error: () => {},
      }
      const { api, createCharge, chargeEvents } = await setUp(
        (delivery) => {
          if (delivery.type !== 'charge.created') return 200
          createdAnswers++
          if (createdAnswers === 1) return (response) => held.push(response)
          return createdAnswers === 2 ? 200 : 500
        },
        { logger },
      )
      const charge = await createCharge()
      const created = (await chargeEvents(charge.id)).find(({ type }) => type === 'charge.created')
      await eventually(() => held.length === 1)

      const redelivered = await api<EventBody>('POST', `/events/${created?.id}/redeliver`)
      for (const response of held) response.writeHead(500).end()
      // The automatic attempt is logged as it ends, then recorded; a second redelivery (a 500 that
      // leaves a delivered event delivered) is recorded after it, so the event it answers with
      // shows whatever that attempt did: had its 500 counted, the event would be failing.
      await eventually(() => logged.some((line) => / 500$/.test(line)))
      const event = await api<EventBody>('POST', `/events/${created?.id}/redeliver`)

      expect(redelivered).toMatchObject({ delivery_status: 'delivered', result_status: 200 })
      expect(event).toMatchObject({ delivery_status: 'delivered', next_attempt_at: null })
      expect(event.retries_log.map(({ result_status }) => result_status)).toEqual([500, 200])
    })

    it('marks exhausted events and finds them with ?delivery_status=exhausted', async ({
      expect,
      setUp,
    }) => {
      // The whole schedule in a tenth of a second.
      const { merchant, api, createCharge, chargeEvents, eventWhen } = await setUp(() => 500, {
        timeScale: 0.000001,
      })
      const charge = await createCharge()
      const events = await chargeEvents(charge.id)

      const exhausted = await Promise.all(
        events.map(({ id }) => eventWhen(id, (e) => e.delivery_status === 'exhausted')),
      )
      const listed = await api<{ collection: EventBody[] }>(
        'GET',
        `/events?delivery_status=exhausted&charge=${charge.id}`,
      )
      const delivered = await api<{ collection: EventBody[] }>(
        'GET',
        `/events?delivery_status=delivered&charge=${charge.id}`,
      )

      for (const event of exhausted) {
        expect(event).toMatchObject({ result_status: 500, next_attempt_at: null })
        expect(event.retries_log).toHaveLength(7)
        expect(isNewestFirst(event.retries_log)).toBe(true)
      }
      expect(listed.collection.map(({ id }) => id).sort()).toEqual(
        events.map(({ id }) => id).sort(),
      )
      expect(delivered.collection).toHaveLength(0)
      expect(merchant.received).toHaveLength(8 * events.length)
    })

    it('sends the compact form as the body, with what each event family makes available', async ({
      expect,
      setUp,
    }) => {
      const { merchant, api, createCharge, chargeEvents } = await setUp(() => 200)
      const charge = await createCharge()
      const instrument = await api<{ id: string }>('POST', '/instruments', testCard(charge.id))
      const [payment] = (
        await api<{ collection: { id: string }[] }>('GET', `/payments?charge=${charge.id}`)
      ).collection
      await api('POST', `/payments/${payment?.id}/refund`, { amount: 5 })
      const events = await chargeEvents(charge.id)
      await merchant.until((received) => received.length === events.length)

      const bodies = new Map(
        merchant.received.map((delivery) => {
          expect(delivery.url.searchParams.get('event')).toBe(delivery.id)
          expect(delivery.url.searchParams.get('event_type')).toBe(delivery.type)
          const body = JSON.parse(delivery.body)
          expect(compactEventSchema.parse(body)).toEqual(body)
          return [delivery.type, body]
        }),
      )
      const chargeFields = {
        id: charge.id,
        type: 'card_onetime',
        charge_type: 'card_onetime',
        amount: 25,
        currency: 'EUR',
        metadata: { order_id: 'order_1' },
      }
      expect(bodies.get('charge.created')).toEqual({
        id: events.find((event) => event.type === 'charge.created')?.id,
        type: 'charge.created',
        charge: chargeFields,
        instrument: { id: null, failure_description: null },
      })
      expect(bodies.get('instrument.authorized')).toEqual({
        id: events.find((event) => event.type === 'instrument.authorized')?.id,
        type: 'instrument.authorized',
        charge: chargeFields,
        instrument: {
          id: instrument.id,
          failure_description: null,
          request_log: expect.objectContaining({ ip_address: expect.any(String) }),
          recurring: false,
          captured_on_creation: true,
        },
      })
      expect(bodies.get('payment.success')).toMatchObject({
        instrument: { id: instrument.id, captured_on_creation: true },
        payment: { id: payment?.id },
      })
      const refunded = bodies.get('refund.success')
      expect(refunded.instrument).toEqual({ id: instrument.id, failure_description: null })
      expect(refunded).not.toHaveProperty('payment')
    })

    it('signs deliveries so standardwebhooks verifies them, and rejects an altered body', async ({
      expect,
      setUp,
    }) => {
      const signingSecret = `whsec_${randomBytes(32).toString('base64')}`
      const { merchant, createCharge } = await setUp(() => 200, { signingSecret })

      await createCharge()
      await merchant.until((received) => received.length === 2)

      const webhook = new Webhook(signingSecret)
      for (const delivery of merchant.received) {
        const headers = {
          'webhook-id': String(delivery.headers['webhook-id']),
          'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
          'webhook-signature': String(delivery.headers['webhook-signature']),
        }
        expect(headers['webhook-id']).toBe(delivery.id)
        expect(webhook.verify(delivery.body, headers)).toMatchObject({
          id: delivery.id,
          type: delivery.type,
        })
        const altered = delivery.body.replace(delivery.type, 'charge.error')
        expect(() => webhook.verify(altered, headers)).toThrow()
      }
    })

    it('close() returns with retries pending and a receiver hanging, leaving no socket open', async ({
      expect,
      onTestFinished,
    }) => {
      const merchant = await startReceiver(() => 'hang')
      onTestFinished(() => merchant.stop())
      const harness = await startTestSandbox({ timeScale: 1, state: freshStoreState })
      const { sandbox } = harness
      const response = await fetch(`${sandbox.apiUrl}/charges`, {
        method: 'POST',
        headers: { authorization: asDefaultAccount, 'content-type': 'application/json' },
        body: JSON.stringify({
          charge_type: 'card_onetime',
          amount: 25,
          currency: 'EUR',
          events_url: merchant.url,
        }),
      })
      expect(response.status).toBe(201)
      await merchant.until((received) => received.length === 1)

      await harness.close()

      await eventually(() => merchant.openConnections() === 0, {
        timeoutMs: 5_000,
        what: 'delivery sockets closed',
      })
    })
  })

  describe.concurrent('delivery timeouts through startSandbox', () => {
    it('records result_status 0 for a receiver that does not answer within deliveryTimeoutMs', async ({
      expect,
      setUp,
    }) => {
      const { createCharge, chargeEvents, eventWhen } = await setUp(() => 'hang', {
        timeScale: 1,
        deliveryTimeoutMs: 100,
      })

      const charge = await createCharge()
      const [first] = (await chargeEvents(charge.id)).reverse()
      const event = await eventWhen(first?.id ?? '', (e) => e.delivery_status === 'failing', 10_000)

      expect(event.result_status).toBe(0)
      expect(event.next_attempt_at).not.toBeNull()
    })

    it('waits 10 s for an answer by default, as the service does, and refuses a bad limit', async ({
      expect,
    }) => {
      const defaults = resolveDeliverySettings({
        queue: createMemoryWorkQueue(),
        loadJob: async () => undefined,
        onAttempt: () => {},
      })
      expect(defaults.timeoutMs).toBe(10_000)
      await expect(startSandbox({ port: 0, deliveryTimeoutMs: 0 })).rejects.toThrow(
        'deliveryTimeoutMs must be a number of ms > 0',
      )
    })
  })
})
