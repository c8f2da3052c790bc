import { type ErrorCode, encodeTestAmount } from '@chargekit/errors'
import type { TestSandbox } from '@chargekit/sandbox/testing'
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  expectTypeOf,
  it,
  vi,
} from 'vitest'
import {
  AbortError,
  type ApiError,
  AuthenticationError,
  type ChargekitClient,
  ChargekitError,
  ConflictError,
  ConnectionError,
  type DeclinedElement,
  NotFoundError,
  PaymentError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
} from '../src/index'
import { type FaultProxy, startFaultProxy } from './support/fault-proxy'
import { authorize, capture, card, chargeParams } from './support/flows'
import { startRecordingServer } from './support/recording-server'
import { account, onEachTransport, otherAccount, startClientSandbox } from './support/sandbox'

onEachTransport(({ testClient }) => {
  let env: TestSandbox
  let client: ChargekitClient
  let proxy: FaultProxy

  beforeAll(async () => {
    env = await startClientSandbox()
    client = testClient(env.sandbox.url)
  })
  afterAll(() => env.close())
  // A proxy per test, so that what one test's proxy saw is that test's requests alone.
  beforeEach(async () => {
    proxy = await startFaultProxy(env.sandbox.url)
  })
  afterEach(() => proxy.close())

  async function failure(promise: Promise<unknown>): Promise<Error> {
    try {
      await promise
    } catch (error) {
      expect(error).toBeInstanceOf(ChargekitError)
      return error as Error
    }
    throw new Error('the call succeeded')
  }

  describe('errors from real responses', () => {
    it('AuthenticationError for a wrong key, naming neither the key nor the header', async () => {
      const wrongKey = 'sk_wrong_but_secret'
      const error = await failure(
        testClient(env.sandbox.url, { privateKey: wrongKey })
          .charges.list()
          .then((page) => page),
      )
      expect(error).toBeInstanceOf(AuthenticationError)
      expect(error).toMatchObject({
        status: 401,
        code: '05.03.0002',
        category: 'implementation',
        designation: 'Merchant Authorization Error',
        attempts: 1,
      })
      expect((error as ApiError).requestId).toMatch(/^req_/)
      expect(error.message).toMatch(/Check the accountId and privateKey/)
      expect(error.message).not.toContain(wrongKey)
      expect(error.message).not.toContain(btoa(`${account.id}:${wrongKey}`))
    })

    it("NotFoundError for an unknown id and for another account's object", async () => {
      const unknown = await failure(client.charges.retrieve('ch_does_not_exist'))
      expect(unknown).toBeInstanceOf(NotFoundError)
      expect(unknown).toMatchObject({ status: 404, code: undefined, method: 'GET' })

      const other = testClient(env.sandbox.url, {
        accountId: otherAccount.id,
        privateKey: otherAccount.key,
      })
      const theirs = await other.charges.create(chargeParams(env.eventsUrl))
      expect(await failure(client.charges.retrieve(theirs.id))).toBeInstanceOf(NotFoundError)
    })

    it('ValidationError lists the rejected parameters', async () => {
      const error = await failure(
        client.charges.create(chargeParams(env.eventsUrl, { amount: 10.123, currency: 'USD' })),
      )
      expect(error).toBeInstanceOf(ValidationError)
      const validation = error as ValidationError
      expect(validation).toMatchObject({ status: 400, code: '01.01.0000', category: 'validation' })
      expect(Object.keys(validation.parameters)).toContain('amount')
      expect(validation.message).toMatch(/Fix these parameters: amount: /)
      expect(validation.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
    })

    it('ValidationError says what each rejected field is', async () => {
      const charge = await client.charges.create(chargeParams(env.eventsUrl))
      const error = await failure(
        client.instruments.create({ charge: charge.id, ...card, expiration_month: 13 }),
      )
      expect(error).toBeInstanceOf(ValidationError)
      expect((error as ValidationError).parameters).toEqual({
        expiration_month: ["Expected the card's expiry month, a number from 1 to 12"],
      })
      expect(error.message).toContain(
        "Fix these parameters: expiration_month: Expected the card's expiry month, a number from 1 to 12.",
      )
    })

    it('ConflictError for an illegal transition', async () => {
      const { instrument } = await capture(client, env.eventsUrl)
      const error = await failure(client.instruments.reverse(instrument.id))
      expect(error).toBeInstanceOf(ConflictError)
      expect(error).toMatchObject({
        status: 409,
        code: '05.04.0001',
        designation: 'Instrument Already Captured',
      })
      expect(error.message).toMatch(/retrieve it to see its current state/)
    })

    it('ConflictError when an idempotency key is reused with another body', async () => {
      const idempotencyKey = crypto.randomUUID()
      await client.charges.create(chargeParams(env.eventsUrl, { amount: 5 }), { idempotencyKey })
      const error = await failure(
        client.charges.create(chargeParams(env.eventsUrl, { amount: 6 }), { idempotencyKey }),
      )
      expect(error).toBeInstanceOf(ConflictError)
      expect(error).toMatchObject({ status: 409, code: '03.04.0000', idempotencyKey })
      expect(error.message).toContain(`Idempotency-Key ${idempotencyKey} was already used`)
    })

    it('PaymentError says what was declined and why', async () => {
      const charge = await client.charges.create(
        chargeParams(env.eventsUrl, { amount: encodeTestAmount('03.03.0000', 'instrument') }),
      )
      const error = await failure(client.instruments.create({ charge: charge.id, ...card }))
      expect(error).toBeInstanceOf(PaymentError)
      const decline = error as PaymentError
      expect(decline).toMatchObject({
        status: 402,
        code: '03.03.0000',
        category: 'hard_decline',
        designation: 'Card is Declined',
        element: 'instrument',
        failureDescription: 'Card is Declined',
        retryable: false,
      })
      expect(decline.objectId).toMatch(/^in_/)
      // Checked by the typecheck: the catalogue's codes complete, a newer code still fits.
      expectTypeOf(decline.code).toEqualTypeOf<ErrorCode | (string & {}) | undefined>()
      expectTypeOf<'03.03.0000'>().toExtend<NonNullable<PaymentError['code']>>()
      expectTypeOf(decline.element).toEqualTypeOf<DeclinedElement | undefined>()
      expect(decline.message).toMatch(
        new RegExp(
          `^Instrument ${decline.objectId} was declined: 03\\.03\\.0000 Card is Declined \\(hard decline\\) — Refused by the issuer\\. Do not retry unchanged`,
        ),
      )
      const stored = await client.instruments.retrieve(decline.objectId as string)
      expect(stored.status).toBe('invalid')
    })

    it('PaymentError names the step from the endpoint when baseUrl has a path prefix', async () => {
      // A decline whose metadata names no object: only the endpoint tells which step failed.
      const gateway = await startRecordingServer(() => ({
        status: 402,
        body: JSON.stringify({
          message: 'Transaction Error',
          metadata: { failure_description: 'Card is Declined' },
          failure_code: '03.03.0000',
          failure_description: 'Card is Declined',
        }),
      }))
      try {
        const error = await failure(
          testClient(`${gateway.url}/payments-gateway`).instruments.create({
            charge: 'ch_1',
            ...card,
          }),
        )
        expect(gateway.requests.map((request) => request.url)).toEqual([
          '/payments-gateway/v2/instruments',
        ])
        expect(error).toBeInstanceOf(PaymentError)
        expect(error).toMatchObject({ element: 'instrument', objectId: undefined })
        expect(error.message).toMatch(/^Instrument was declined: 03\.03\.0000 Card is Declined/)
      } finally {
        await gateway.close()
      }
    })

    it('ConnectionError when nothing listens at baseUrl', async () => {
      const closed = await startFaultProxy(env.sandbox.url)
      const url = closed.url
      await closed.close()
      const error = await failure(testClient(url, { maxRetries: 1 }).charges.retrieve('ch_1'))
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error).not.toBeInstanceOf(TimeoutError)
      expect(error).toMatchObject({ attempts: 2, method: 'GET', path: '/v2/charges/ch_1' })
      expect(error.message).toMatch(/got no answer: .*ECONNREFUSED.*Check baseUrl/)
    })

    it('ConnectionError when a custom fetch throws instead of rejecting, leaving nothing behind', async () => {
      const thrown = new TypeError('fetch is not configured')
      const controller = new AbortController()
      const added = vi.spyOn(controller.signal, 'addEventListener')
      const removed = vi.spyOn(controller.signal, 'removeEventListener')
      vi.useFakeTimers()
      try {
        const error = await failure(
          testClient(env.sandbox.url, {
            maxRetries: 0,
            fetch: () => {
              throw thrown
            },
          }).charges.retrieve('ch_1', { signal: controller.signal }),
        )
        expect(error).toBeInstanceOf(ConnectionError)
        // A redacted copy of what the fetch threw, keeping its name and message.
        expect(error.cause).toMatchObject({ name: 'TypeError', message: thrown.message })
        expect(error.message).toMatch(
          /^GET \/v2\/charges\/ch_1 got no answer: fetch is not configured/,
        )
        // The attempt's timer was cleared, and its listener taken off the caller's signal.
        expect(vi.getTimerCount()).toBe(0)
      } finally {
        vi.useRealTimers()
      }
      expect(added).toHaveBeenCalled()
      expect(removed.mock.calls).toEqual(
        added.mock.calls.map(([type, listener]) => [type, listener]),
      )
    })

    it('ConnectionError when a custom fetch resolves to something that is not a Response', async () => {
      const error = await failure(
        testClient(env.sandbox.url, {
          maxRetries: 0,
          fetch: async () => ({}) as Response,
        }).charges.retrieve('ch_1'),
      )
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error.message).toMatch(
        /^GET \/v2\/charges\/ch_1 got no answer: .*text is not a function/,
      )
    })

    it('TimeoutError when the service does not answer in time', async () => {
      proxy.inject({ method: 'GET', path: '/v2/charges' }, { kind: 'hang' })
      const error = await failure(
        testClient(proxy.url, { timeoutMs: 100, maxRetries: 0 })
          .charges.list()
          .then((page) => page),
      )
      expect(error).toBeInstanceOf(TimeoutError)
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error.message).toMatch(/timed out after 100 ms, reaching timeoutMs/)
    })

    it('AbortError when the caller aborts', async () => {
      proxy.inject({ method: 'POST', path: '/v2/charges' }, { kind: 'hang' })
      const controller = new AbortController()
      const reason = new Error('user left the page')
      const pending = testClient(proxy.url).charges.create(chargeParams(env.eventsUrl), {
        signal: controller.signal,
      })
      await expect.poll(() => proxy.requests.length).toBe(1)
      controller.abort(reason)
      const error = await failure(pending)
      expect(error).toBeInstanceOf(AbortError)
      expect(error.name).toBe('AbortError')
      expect(error.cause).toBe(reason)
      expect((error as AbortError).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
      expect(error.message).toMatch(
        /sending it again with idempotencyKey ".+" cannot apply it twice/,
      )
    })

    it('ResponseValidationError for an answer that is not what the endpoint promises', async () => {
      const { charge } = await authorize(client, env.eventsUrl)
      const broken = { ...charge, amount: 'fifty' }
      proxy.inject(
        { method: 'GET', path: `/v2/charges/${charge.id}` },
        {
          kind: 'respond',
          status: 200,
          headers: { 'request-id': 'req_fake' },
          body: JSON.stringify(broken),
        },
        { kind: 'respond', status: 200, body: '<html>login</html>' },
        { kind: 'respond', status: 200, body: JSON.stringify(broken) },
      )
      const proxied = testClient(proxy.url)
      const error = await failure(proxied.charges.retrieve(charge.id))
      expect(error).toBeInstanceOf(ResponseValidationError)
      expect(error).toMatchObject({ status: 200, requestId: 'req_fake' })
      expect(Object.keys((error as ResponseValidationError).issues)).toEqual(['amount'])
      expect(error.message).toMatch(/pass validate: false/)

      expect(await failure(proxied.charges.retrieve(charge.id))).toMatchObject({
        name: 'ResponseValidationError',
        message: expect.stringMatching(/not JSON/),
      })
      // validate: false hands the body over as it came.
      const unchecked = await proxied.charges.retrieve(charge.id, { validate: false })
      expect(unchecked.amount).toBe('fifty')
    })

    it('keeps fields newer than the schema when validating', async () => {
      const { charge } = await authorize(client, env.eventsUrl)
      const newer = { ...charge, loyalty_points: 120, risk: { score: 0.2 } }
      proxy.inject(
        { method: 'GET', path: `/v2/charges/${charge.id}` },
        { kind: 'respond', status: 200, body: JSON.stringify(newer) },
      )
      expect(await testClient(proxy.url).charges.retrieve(charge.id)).toEqual(newer)
    })
  })
})
