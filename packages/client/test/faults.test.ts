import type { TestSandbox } from '@chargekit/sandbox/testing'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  AbortError,
  ApiError,
  type ChargekitClient,
  type ClientLogEntry,
  ConflictError,
  ConnectionError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '../src/index'
import { type FaultProxy, startFaultProxy } from './support/fault-proxy'
import { authorize, chargeParams, orderId } from './support/flows'
import { onEachTransport, recordingSleep, startClientSandbox } from './support/sandbox'

onEachTransport(({ testClient, countingTransport }) => {
  let env: TestSandbox
  let direct: ChargekitClient
  let proxy: FaultProxy
  let log: ClientLogEntry[]
  let client: ChargekitClient

  const rateLimitBody = JSON.stringify({
    message: 'Too many requests',
    failure_code: '02.01.0000',
    failure_description: 'Too Many Tries',
  })
  const unavailable = {
    kind: 'respond',
    status: 503,
    body: '{"message":"Service unavailable"}',
  } as const

  beforeAll(async () => {
    env = await startClientSandbox()
    direct = testClient(env.sandbox.url)
  })
  afterAll(() => env.close())
  // A proxy per test: a request that a test's client gave up on while sending it can still reach
  // the proxy after that test ends, and must not be counted by the next one. Closing the proxy
  // turns such late connections away.
  beforeEach(async () => {
    proxy = await startFaultProxy(env.sandbox.url)
  })
  afterEach(() => proxy.close())

  function proxiedClient(
    options: Parameters<typeof testClient>[1] = {},
    clock: Parameters<typeof testClient>[2] = {},
  ) {
    log = []
    client = testClient(proxy.url, { logger: (entry) => log.push(entry), ...options }, clock)
    return client
  }

  /** How many charges carry this order id, counted through their `charge.created` events. */
  async function chargesFor(order: string) {
    const page = await direct.events.list({ type: 'charge.created', metadata: { order_id: order } })
    return page.collection.map((event) => event.charge?.id)
  }

  const idempotencyKeys = () =>
    proxy.requests
      .filter((request) => request.method === 'POST')
      .map((r) => r.headers['idempotency-key'])

  describe('retries through a faulty network', () => {
    it('retries a 503 and then succeeds', async () => {
      const { charge } = await authorize(direct, env.eventsUrl)
      proxy.inject({ method: 'GET', path: `/v2/charges/${charge.id}` }, unavailable)
      expect(await proxiedClient().charges.retrieve(charge.id)).toEqual(charge)
      expect(proxy.requests.map((request) => request.fault)).toEqual(['respond', undefined])
      expect(log.map((entry) => entry.type)).toEqual([
        'request',
        'response',
        'retry',
        'request',
        'response',
      ])
      expect(log[2]).toMatchObject({ type: 'retry', attempt: 1, reason: '503' })
    })

    it('waits as long as a 429 Retry-After says (seconds or HTTP date), then succeeds', async () => {
      const { charge } = await authorize(direct, env.eventsUrl)
      const path = `/v2/charges/${charge.id}`
      proxy.inject(
        { method: 'GET', path },
        { kind: 'respond', status: 429, headers: { 'retry-after': '1' }, body: rateLimitBody },
        {
          kind: 'respond',
          status: 429,
          headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() },
          body: rateLimitBody,
        },
      )
      // The waits are recorded, not waited: what matters is how long the client decides to wait.
      const { waits, sleep } = recordingSleep()
      expect((await proxiedClient({}, { sleep }).charges.retrieve(charge.id)).id).toBe(charge.id)
      const retries = log.flatMap((entry) => (entry.type === 'retry' ? [entry] : []))
      expect(retries.map((entry) => entry.reason)).toEqual(['429', '429'])
      // A minute away, but capped by backoff.maxRetryAfterMs (2 s in these tests).
      expect(retries.map((entry) => entry.delayMs)).toEqual([1000, 2000])
      expect(waits).toEqual([1000, 2000])
    })

    it('gives up at once with RateLimitError when Retry-After is beyond the deadline', async () => {
      proxy.inject(
        { method: 'GET', path: '/v2/payments' },
        { kind: 'respond', status: 429, headers: { 'retry-after': '30' }, body: rateLimitBody },
      )
      const error = await proxiedClient({ deadlineMs: 1_000, backoff: { maxRetryAfterMs: 60_000 } })
        .payments.list()
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(error).toBeInstanceOf(RateLimitError)
      expect(error).toMatchObject({ retryAfterMs: 30_000, code: '02.01.0000', attempts: 1 })
      expect(proxy.requests).toHaveLength(1)
    })

    it('retries a connection reset before the request reached the service', async () => {
      const order = orderId('reset')
      proxy.inject({ method: 'POST', path: '/v2/charges' }, { kind: 'reset-before' })
      const charge = await proxiedClient().charges.create(
        chargeParams(env.eventsUrl, { metadata: { order_id: order } }),
      )
      expect(await chargesFor(order)).toEqual([charge.id])
      expect(log.find((entry) => entry.type === 'retry')).toMatchObject({
        reason: 'ConnectionError',
      })
    })

    it('resends with the same key when the answer is lost after the service committed: one charge', async () => {
      const order = orderId('lost')
      proxy.inject({ method: 'POST', path: '/v2/charges' }, { kind: 'reset-after' })
      const charge = await proxiedClient().charges.create(
        chargeParams(env.eventsUrl, { metadata: { order_id: order } }),
      )
      const [first, second] = idempotencyKeys()
      expect(proxy.requests.map((request) => request.fault)).toEqual(['reset-after', undefined])
      expect(first).toMatch(/^[0-9a-f-]{36}$/)
      expect(second).toBe(first)
      expect(await chargesFor(order)).toEqual([charge.id])
    })

    it('retries a body cut short', async () => {
      const { charge } = await authorize(direct, env.eventsUrl)
      proxy.inject({ method: 'GET', path: `/v2/charges/${charge.id}` }, { kind: 'truncate' })
      expect(await proxiedClient().charges.retrieve(charge.id)).toEqual(charge)
      expect(proxy.requests).toHaveLength(2)
    })

    it('times out a slow attempt and retries it; a late first POST still makes one charge', async () => {
      const order = orderId('slow')
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      proxy.inject({ method: 'POST', path: '/v2/charges' }, { kind: 'hold', release: held })
      const charge = await proxiedClient({ timeoutMs: 150 }).charges.create(
        chargeParams(env.eventsUrl, { metadata: { order_id: order } }),
      )
      expect(log.find((entry) => entry.type === 'retry')).toMatchObject({ reason: 'TimeoutError' })
      // Only now does the first attempt reach the sandbox; count once it has been answered.
      release()
      await proxy.requests[0]?.done
      expect(proxy.requests[0]?.fault).toBe('hold')
      expect(await chargesFor(order)).toEqual([charge.id])
      const [first, second] = idempotencyKeys()
      expect(second).toBe(first)
    })

    it('stops at the overall deadline even with retries left', async () => {
      proxy.inject(
        { method: 'GET', path: '/v2/charges' },
        ...Array.from({ length: 20 }, () => ({ kind: 'hang' }) as const),
      )
      const counted = countingTransport()
      const error = await proxiedClient({
        timeoutMs: 60,
        deadlineMs: 150,
        maxRetries: 20,
        transport: counted.transport,
      })
        .charges.list()
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(error).toBeInstanceOf(TimeoutError)
      const { attempts } = error as TimeoutError
      expect(attempts).toBeLessThan(20)
      expect(counted.calls()).toBe(attempts)
      // Every attempt but the last gets the whole timeoutMs to reach the proxy, where it hangs until
      // the client closes it. The last gets what is left of the deadline, down to 1 ms, and may be
      // cut before its request leaves.
      expect(proxy.requests.filter((request) => request.fault !== 'hang')).toEqual([])
      await vi.waitFor(() => expect(proxy.hungConnectionsClosed()).toBe(proxy.requests.length))
      expect(proxy.requests.length).toBeGreaterThanOrEqual(attempts - 1)
      expect(proxy.requests.length).toBeLessThanOrEqual(attempts)
    })

    it('throws ServerError once maxRetries are used up', async () => {
      proxy.inject({ method: 'GET', path: '/v2/payments' }, unavailable, unavailable, unavailable)
      const error = await proxiedClient({ maxRetries: 2 })
        .payments.list()
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(error).toBeInstanceOf(ServerError)
      expect(error).toMatchObject({ status: 503, attempts: 3 })
      expect((error as ServerError).message).toMatch(/\(3 attempts\)$/)
      expect(proxy.requests).toHaveLength(3)
    })

    it('retries a 409 "same key still in flight" that carries Retry-After', async () => {
      const order = orderId('inflight')
      proxy.inject(
        { method: 'POST', path: '/v2/charges' },
        {
          kind: 'respond',
          status: 409,
          headers: { 'retry-after': '0' },
          body: JSON.stringify({
            message: 'A request with this Idempotency-Key is still in progress',
            failure_code: '02.04.0000',
          }),
        },
      )
      const charge = await proxiedClient().charges.create(
        chargeParams(env.eventsUrl, { metadata: { order_id: order } }),
      )
      expect(await chargesFor(order)).toEqual([charge.id])
    })

    it('never retries any other 409, even with Retry-After', async () => {
      const order = orderId('conflict')
      proxy.inject(
        { method: 'POST', path: '/v2/charges' },
        {
          kind: 'respond',
          status: 409,
          headers: { 'retry-after': '0' },
          body: JSON.stringify({
            message: 'The instrument was already captured',
            failure_code: '05.04.0001',
          }),
        },
      )
      const error = await proxiedClient({ maxRetries: 3 })
        .charges.create(chargeParams(env.eventsUrl, { metadata: { order_id: order } }))
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(error).toBeInstanceOf(ConflictError)
      expect(error).toMatchObject({ code: '05.04.0001', attempts: 1 })
      expect((error as ConflictError).message).toMatch(/retrieve it to see its current state/)
      expect(proxy.requests).toHaveLength(1)
      expect(await chargesFor(order)).toEqual([])
    })

    it('never retries a decline, a bad request or a missing object', async () => {
      // 02.03.0000 is a soft decline: a later attempt may succeed, but that is the merchant's call.
      const { charge, instrument } = await authorize(direct, env.eventsUrl, { amount: 2030000.3 })
      const proxied = proxiedClient({ maxRetries: 5 })
      await expect(
        proxied.payments.create({
          instrument: instrument.id,
          amount: charge.amount,
          currency: 'USD',
        }),
      ).rejects.toMatchObject({ name: 'PaymentError', code: '02.03.0000', retryable: true })
      await expect(
        proxied.charges.create({ ...chargeParams(env.eventsUrl), currency: 'XXQ' }),
      ).rejects.toMatchObject({ status: 400 })
      await expect(proxied.refunds.retrieve('re_missing')).rejects.toMatchObject({ status: 404 })
      expect(proxy.requests).toHaveLength(3)
      expect(log.some((entry) => entry.type === 'retry')).toBe(false)
    })
  })

  describe('idempotency keys', () => {
    it('sends a fresh key per POST, the caller key when given, and none on GET', async () => {
      const proxied = proxiedClient()
      const a = await proxied.charges.create(chargeParams(env.eventsUrl))
      await proxied.charges.create(chargeParams(env.eventsUrl))
      await proxied.charges.retrieve(a.id)
      const own = `order-${crypto.randomUUID()}`
      const params = chargeParams(env.eventsUrl)
      const first = await proxied.charges.create(params, { idempotencyKey: own })
      const replay = await proxied.charges.create(params, { idempotencyKey: own })
      expect(replay.id).toBe(first.id)

      const keys = proxy.requests.map((request) => request.headers['idempotency-key'])
      expect(keys[0]).not.toBe(keys[1])
      expect(keys[2]).toBeUndefined()
      expect(keys.slice(3)).toEqual([own, own])
    })
  })

  describe('what a timeout does to the connection', () => {
    it('closes it when the call has a signal', async () => {
      proxy.inject({ method: 'GET', path: '/v2/payments' }, { kind: 'hang' })
      const error = await proxiedClient({ timeoutMs: 100, maxRetries: 0 })
        .payments.list({}, { signal: new AbortController().signal })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(error).toBeInstanceOf(TimeoutError)
      await expect.poll(() => proxy.hungConnectionsClosed()).toBe(1)
    })

    it('closes it without a signal too, and the client keeps working', async () => {
      const { charge } = await authorize(direct, env.eventsUrl)
      proxy.inject({ method: 'GET', path: `/v2/charges/${charge.id}` }, { kind: 'hang' })
      const error = await proxiedClient({ timeoutMs: 100, maxRetries: 0 })
        .charges.retrieve(charge.id)
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(error).toBeInstanceOf(TimeoutError)
      // Closed by the client, not by the proxy or the runtime's own (minutes long) timeouts.
      await expect.poll(() => proxy.hungConnectionsClosed()).toBe(1)
      expect((await client.charges.retrieve(charge.id)).id).toBe(charge.id)
    })
  })

  describe('aborts', () => {
    // Both waits below are a minute long: a call that waited them out would overrun the test's own
    // timeout (seconds), so passing shows the abort ended the wait without asserting any timing.
    it('cancels at once while waiting to retry', async () => {
      proxy.inject(
        { method: 'GET', path: '/v2/charges' },
        { kind: 'respond', status: 503, headers: { 'retry-after': '60' }, body: '{}' },
      )
      const controller = new AbortController()
      const pending = proxiedClient({
        backoff: { maxRetryAfterMs: 60_000 },
        // The retry is logged just before the wait starts; the microtask aborts once it has.
        logger: (entry) => {
          if (entry.type === 'retry') queueMicrotask(() => controller.abort())
        },
      })
        .charges.list({}, { signal: controller.signal })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(await pending).toBeInstanceOf(AbortError)
      expect(proxy.requests).toHaveLength(1)
    })

    it('does not start the wait when the signal fired just before it', async () => {
      proxy.inject(
        { method: 'GET', path: '/v2/charges' },
        { kind: 'respond', status: 503, headers: { 'retry-after': '60' }, body: '{}' },
      )
      const controller = new AbortController()
      // The logger runs after the failed attempt and before the wait: an abort there has already
      // happened when the wait begins, so no abort event will come to end it.
      const error = await proxiedClient({
        backoff: { maxRetryAfterMs: 60_000 },
        logger: (entry) => {
          if (entry.type === 'retry') controller.abort()
        },
      })
        .charges.list({}, { signal: controller.signal })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(error).toBeInstanceOf(AbortError)
      expect(proxy.requests).toHaveLength(1)
    })

    it('sends nothing when the signal is already aborted', async () => {
      const error = await proxiedClient()
        .charges.retrieve('ch_1', { signal: AbortSignal.abort() })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(error).toBeInstanceOf(AbortError)
      expect(proxy.requests).toHaveLength(0)
    })

    it('is not a ConnectionError, so callers can tell it from a network failure', async () => {
      proxy.inject({ method: 'GET', path: '/v2/payments' }, { kind: 'hang' })
      const controller = new AbortController()
      const pending = proxiedClient()
        .payments.list({}, { signal: controller.signal })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      // Abort once the request hangs at the proxy, so the connection is open when it is cut.
      await expect.poll(() => proxy.requests.length).toBe(1)
      controller.abort()
      const error = await pending
      expect(error).toBeInstanceOf(AbortError)
      expect(error).not.toBeInstanceOf(ConnectionError)
      await expect.poll(() => proxy.hungConnectionsClosed()).toBe(1)
    })
  })

  describe('redirects', () => {
    it.each([301, 302, 303, 307, 308])(
      'are not followed: a POST answered %i fails with an ApiError and sends nothing else',
      async (status) => {
        const order = orderId(`redirect-${status}`)
        proxy.inject(
          { method: 'POST', path: '/v2/charges' },
          { kind: 'respond', status, headers: { location: `${env.sandbox.url}/v2/charges` } },
        )
        const error = await proxiedClient({ maxRetries: 2 })
          .charges.create(chargeParams(env.eventsUrl, { metadata: { order_id: order } }))
          .then(
            () => undefined,
            (caught: unknown) => caught,
          )
        expect(error).toBeInstanceOf(ApiError)
        expect(error).toMatchObject({ status, attempts: 1 })
        expect((error as ApiError).message).toContain(
          `POST /v2/charges answered ${status}, a redirect to ${env.sandbox.url}/v2/charges. The client does not follow redirects`,
        )
        expect((error as ApiError).message).toMatch(
          /set baseUrl to the address the service answers/,
        )
        expect(proxy.requests).toHaveLength(1)
        expect(await chargesFor(order)).toEqual([])
      },
    )
  })
})
