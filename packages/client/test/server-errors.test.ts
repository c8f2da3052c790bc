import type { Processor, SandboxLogger } from '@chargekit/sandbox'
import type { TestSandbox } from '@chargekit/sandbox/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ChargekitClient,
  type ClientLogEntry,
  RateLimitError,
  ServerError,
} from '../src/index'
import { card, chargeParams } from './support/flows'
import { account, onEachTransport, startClientSandbox } from './support/sandbox'

onEachTransport(({ testClient }) => {
  // A processor plug-in as slow as a struggling acquirer: slower than the sandbox's answer timeout.
  const troubled: Processor = {
    name: 'troubled',
    chargeTypes: ['card_onetime'],
    async authorize() {
      await new Promise((resolve) => setTimeout(resolve, 150))
      return { status: 'succeeded' }
    },
    capture: () => ({ status: 'succeeded' }),
    refund: () => ({ status: 'succeeded' }),
    reverse: () => ({ status: 'succeeded' }),
  }

  const limited = { id: 'acct_limited', key: 'sk_limited_secret' }

  let env: TestSandbox
  let client: ChargekitClient

  beforeAll(async () => {
    env = await startClientSandbox({
      processors: [troubled],
      requestTimeoutMs: 100,
      // One request at once, a token back every 50 ms: concurrent calls meet a 429 whose
      // Retry-After (whole seconds) is far longer than the wait the bucket needs.
      accounts: [account, { ...limited, rateLimit: { requestsPerSecond: 20, burst: 1 } }],
    })
    client = testClient(env.sandbox.url)
  })
  afterAll(() => env.close())

  async function troubledCharge() {
    return client.charges.create(
      chargeParams(env.eventsUrl, { channels: ['card_onetime_troubled'] }),
    )
  }

  describe('ServerError from real 5xx answers', () => {
    it('is a 500 99.01.0000 when the sandbox storage fails, after every retry is used', async () => {
      // Every storage call throws: the sandbox answers each request 500 without internals.
      const outage = new Proxy(
        {},
        {
          get: (_target, name) =>
            name === 'then'
              ? undefined
              : () => {
                  throw new Error('storage outage: disk on fire')
                },
        },
      )
      const reported: string[] = []
      const logger: SandboxLogger = {
        info: () => {},
        warn: () => {},
        error: (message) => reported.push(message),
      }
      // A secret of its own: the sandbox would otherwise read the account's from the store to start.
      const broken = await startClientSandbox({
        store: outage as never,
        logger,
        signingSecret: 'whsec_c3RvcmFnZSBvdXRhZ2UgdGVzdCBrZXk=',
      })
      const error = await testClient(broken.sandbox.url)
        .charges.retrieve('ch_1')
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      await broken.close()
      // One logged failure per attempt (the sandbox's timed-work runner reports the outage too).
      expect(reported.filter((message) => message === 'unexpected error')).toHaveLength(3)
      expect(error).toBeInstanceOf(ServerError)
      expect(error).toMatchObject({
        status: 500,
        code: '99.01.0000',
        category: 'unhandled',
        designation: 'Internal Server Error',
        attempts: 3,
      })
      expect((error as ServerError).message).toMatch(/retry later, and quote the request id/)
      expect((error as ServerError).message).not.toContain('disk on fire')
      expect((error as ServerError).requestId).toMatch(/^req_/)
    })

    it('retries a 504 from a slow processor with the same key and ends with one instrument', async () => {
      const charge = await troubledCharge()
      const log: ClientLogEntry[] = []
      // The in-flight answers carry Retry-After: 1; capped to 50 ms so the test waits for the
      // processor, not for the header.
      const instrument = await testClient(env.sandbox.url, {
        logger: (entry) => log.push(entry),
        maxRetries: 10,
        backoff: { maxRetryAfterMs: 50 },
      }).instruments.create({ charge: charge.id, ...card })
      expect(instrument.status).toBe('authorized')
      const statuses = log.flatMap((entry) => (entry.type === 'response' ? [entry.status] : []))
      expect(statuses[0]).toBe(504)
      expect(statuses.at(-1)).toBe(201)
      const events = await client.events.list({ charge: charge.id, type: 'instrument.authorized' })
      expect(events.collection.map((event) => event.instrument?.id)).toEqual([instrument.id])
    })
  })

  describe('RateLimitError from a real 429', () => {
    const limitedClient = (options: Parameters<typeof testClient>[1] = {}) =>
      testClient(env.sandbox.url, { accountId: limited.id, privateKey: limited.key, ...options })

    it('carries Retry-After when retries are off', async () => {
      const strict = limitedClient({ maxRetries: 0 })
      const outcomes = await Promise.allSettled([
        strict.charges.list().then((page) => page),
        strict.charges.list().then((page) => page),
        strict.charges.list().then((page) => page),
      ])
      const rejected = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
      )
      expect(rejected.length).toBeGreaterThan(0)
      const error = rejected[0] as RateLimitError
      expect(error).toBeInstanceOf(RateLimitError)
      expect(error).toMatchObject({ status: 429, code: '02.01.0000', category: 'soft_decline' })
      expect(error.retryAfterMs).toBeGreaterThan(0)
      expect(error.message).toMatch(/The service asked to wait \d+ ms/)
    })

    it('waits for Retry-After and then succeeds', async () => {
      const log: ClientLogEntry[] = []
      // Retry-After says 1 s, capped to 60 ms: by then the bucket has a token again.
      const patient = limitedClient({
        logger: (entry) => log.push(entry),
        maxRetries: 4,
        backoff: { maxRetryAfterMs: 60 },
      })
      const pages = await Promise.all([patient.charges.list(), patient.charges.list()])
      expect(pages).toHaveLength(2)
      const retries = log.filter((entry) => entry.type === 'retry')
      expect(retries.length).toBeGreaterThan(0)
      expect(
        retries.every(
          (entry) => entry.type === 'retry' && entry.reason === '429' && entry.delayMs === 60,
        ),
      ).toBe(true)
    })
  })
})
