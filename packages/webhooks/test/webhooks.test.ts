import { createClient } from '@chargekit/client'
import type { Event, EventOf } from '@chargekit/schemas'
import {
  createMemoryDeliveryStore,
  createNodeMiddleware,
  createWebhooks,
  type DeliveryStore,
  type WebhooksError,
  type WebhooksOptions,
} from '@chargekit/webhooks'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { account, type EventsServer, startEventsServer } from './support/events-server'
import { postDelivery, signingSecret, startNodeServer, type TestServer } from './support/http'
import { configurationRefusal } from './support/refusal'

let events: EventsServer
const servers: TestServer[] = []

beforeAll(async () => {
  events = await startEventsServer()
})
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await events.close()
})

function client(overrides: { privateKey?: string } = {}) {
  return createClient({ ...account, ...overrides, baseUrl: events.url, maxRetries: 0 })
}

/** A receiver behind createNodeMiddleware on a real node:http server. */
async function receiver(options: Partial<WebhooksOptions> = {}) {
  const webhooks = createWebhooks({ client: client(), ...options })
  const errors: WebhooksError[] = []
  webhooks.onError((error) => void errors.push(error))
  const server = await startNodeServer(createNodeMiddleware(webhooks, { path: '/webhooks' }))
  servers.push(server)
  return { webhooks, errors, url: `${server.url}/webhooks` }
}

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

describe('dispatch', () => {
  it('hands the fetched, typed event to the handlers of its type and to onAny, once', async () => {
    const { webhooks, url } = await receiver()
    const confirmed: EventOf<'charge.confirmed'>[] = []
    const any: Event[] = []
    let createdCalls = 0
    webhooks.on('charge.confirmed', (event) => {
      expectTypeOf(event.type).toEqualTypeOf<'charge.confirmed'>()
      expectTypeOf(event.charge.id).toEqualTypeOf<string>()
      confirmed.push(event)
    })
    webhooks.on('charge.created', () => {
      createdCalls++
    })
    webhooks.onAny((event) => void any.push(event))
    const id = events.add('charge.confirmed')

    const answer = await postDelivery(url, { id, type: 'charge.confirmed' }, { query: true })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      received: true,
      status: 'processed',
      id,
      type: 'charge.confirmed',
    })
    expect(confirmed.map((event) => event.id)).toEqual([id])
    expect(confirmed[0]?.charge.metadata).toEqual({ order_id: expect.stringMatching(/^order-/) })
    expect(any.map((event) => event.id)).toEqual([id])
    expect(createdCalls).toBe(0)
  })

  it('takes several types in one on() and unregisters with the returned function', async () => {
    const { webhooks, url } = await receiver()
    const seen: string[] = []
    const off = webhooks.on(['charge.created', 'charge.error'], (event) => {
      expectTypeOf(event.type).toEqualTypeOf<'charge.created' | 'charge.error'>()
      seen.push(event.type)
    })
    for (const type of ['charge.created', 'charge.error'] as const) {
      expect((await postDelivery(url, { id: events.add(type), type })).status).toBe(200)
    }
    off()
    const late = await postDelivery(url, { id: events.add('charge.error'), type: 'charge.error' })
    expect(late.body?.status).toBe('ignored')
    expect(seen).toEqual(['charge.created', 'charge.error'])
  })

  it('gives events of types this version does not know to onAny', async () => {
    const { webhooks, url } = await receiver()
    const types: string[] = []
    webhooks.onAny((event) => void types.push(event.type))
    const id = events.add('charge.refreshed')
    expect((await postDelivery(url, { id, type: 'charge.refreshed' })).status).toBe(200)
    expect(types).toEqual(['charge.refreshed'])
  })

  it('acknowledges a genuine event no handler wants, without claiming it', async () => {
    const claims: string[] = []
    const store = createMemoryDeliveryStore()
    const spy: DeliveryStore = {
      ...store,
      claim: (id, ttl) => {
        claims.push(id)
        return store.claim(id, ttl)
      },
    }
    const { webhooks, url } = await receiver({ store: spy })
    webhooks.on('charge.error', () => {})
    const id = events.add('charge.created')
    const answer = await postDelivery(url, { id, type: 'charge.created' })
    expect(answer.status).toBe(200)
    expect(answer.body?.status).toBe('ignored')
    expect(claims).toEqual([])
  })

  it('refuses unknown event type names and non-function handlers when registering', async () => {
    const { webhooks } = await receiver()
    // @ts-expect-error: not an event type
    expect(() => webhooks.on('payment.succeeded', () => {})).toThrow(
      /not an event type.*payment.success/,
    )
    // @ts-expect-error: not a function
    expect(() => webhooks.onAny('nope')).toThrow(/must be a function/)
  })
})

describe('authenticity', () => {
  it('rejects an unknown id with 401 and runs nothing', async () => {
    const { webhooks, errors, url } = await receiver()
    let calls = 0
    webhooks.onAny(() => void calls++)
    const answer = await postDelivery(url, { id: 'ev_forged', type: 'charge.created' })
    expect(answer.status).toBe(401)
    expect(answer.body?.error.code).toBe('unknown_event')
    expect(calls).toBe(0)
    expect(errors.map((error) => error.code)).toEqual(['unknown_event'])
    expect(errors[0]?.delivery).toEqual({ id: 'ev_forged', type: 'charge.created' })
  })

  it('rejects a genuine id claimed with another type with 401 and runs nothing', async () => {
    const { webhooks, url } = await receiver()
    let calls = 0
    webhooks.onAny(() => void calls++)
    webhooks.on('charge.confirmed', () => void calls++)
    const id = events.add('charge.created')
    const answer = await postDelivery(url, { id, type: 'charge.confirmed' })
    expect(answer.status).toBe(401)
    expect(answer.body?.error).toEqual({
      code: 'event_mismatch',
      message: expect.stringMatching(
        /claims .* "charge.confirmed", but the service says .*"charge.created"/,
      ),
    })
    expect(calls).toBe(0)
  })

  it('answers 502 (retryable) when the event cannot be fetched, and runs nothing', async () => {
    const { webhooks, url } = await receiver()
    let calls = 0
    webhooks.onAny(() => void calls++)
    const id = events.add('charge.created')
    events.failNext(500)
    const answer = await postDelivery(url, { id, type: 'charge.created' })
    expect(answer.status).toBe(502)
    expect(answer.headers.get('retry-after')).toBe('5')
    expect(answer.body?.error.code).toBe('event_fetch_failed')
    expect(calls).toBe(0)
    // The service's retry then gets through.
    expect((await postDelivery(url, { id, type: 'charge.created' })).status).toBe(200)
    expect(calls).toBe(1)
  })

  it('says the client credentials are wrong when the service refuses them', async () => {
    const webhooks = createWebhooks({ client: client({ privateKey: 'sk_wrong' }) })
    const server = await startNodeServer(createNodeMiddleware(webhooks))
    servers.push(server)
    const answer = await postDelivery(server.url, {
      id: events.add('charge.created'),
      type: 'charge.created',
    })
    expect(answer.status).toBe(502)
    expect(answer.body?.error.message).toMatch(/refused the client's credentials \(HTTP 401\)/)
  })

  it('with a secret, checks the signature before fetching anything', async () => {
    const { webhooks, errors, url } = await receiver({
      secret: [`whsec_${btoa('old key')}`, signingSecret],
    })
    let calls = 0
    webhooks.onAny(() => void calls++)
    const id = events.add('charge.created')
    const unsigned = await postDelivery(url, { id, type: 'charge.created' })
    expect(unsigned.status).toBe(401)
    expect(unsigned.body?.error.code).toBe('invalid_signature')
    const wrongKey = await postDelivery(
      url,
      { id, type: 'charge.created' },
      { signed: `whsec_${btoa('x')}` },
    )
    expect(wrongKey.status).toBe(401)
    expect(events.fetches.get(id)).toBeUndefined()
    expect(calls).toBe(0)
    expect(errors.map((error) => error.code)).toEqual(['invalid_signature', 'invalid_signature'])

    const signed = await postDelivery(url, { id, type: 'charge.created' }, { signed: true })
    expect(signed.status).toBe(200)
    expect(calls).toBe(1)
  })
})

describe('exactly-once effects', () => {
  it('acknowledges a redelivery without running the handlers again', async () => {
    const { webhooks, url } = await receiver()
    let calls = 0
    webhooks.on('charge.created', () => void calls++)
    const id = events.add('charge.created')
    const first = await postDelivery(url, { id, type: 'charge.created' })
    const again = await postDelivery(url, { id, type: 'charge.created' }, { as: 'form' })
    expect(first.body?.status).toBe('processed')
    expect(again.status).toBe(200)
    expect(again.body?.status).toBe('duplicate')
    expect(calls).toBe(1)
  })

  it('answers 409 to a duplicate that arrives while the first is still running', async () => {
    const { webhooks, errors, url } = await receiver()
    const started = deferred()
    const finish = deferred()
    let calls = 0
    webhooks.on('charge.created', async () => {
      calls++
      started.resolve()
      await finish.promise
    })
    const id = events.add('charge.created')
    const first = postDelivery(url, { id, type: 'charge.created' })
    await started.promise
    const duplicates = await Promise.all(
      Array.from({ length: 5 }, () => postDelivery(url, { id, type: 'charge.created' })),
    )
    expect(duplicates.map((answer) => answer.status)).toEqual([409, 409, 409, 409, 409])
    expect(duplicates[0]?.headers.get('retry-after')).toBe('5')
    expect(duplicates[0]?.body?.error.code).toBe('in_flight')
    finish.resolve()
    expect((await first).status).toBe(200)
    expect((await postDelivery(url, { id, type: 'charge.created' })).body?.status).toBe('duplicate')
    expect(calls).toBe(1)
    expect(errors).toEqual([]) // an in-flight duplicate is not an error
  })

  it('answers 500 when a handler throws and runs the event again on the retry', async () => {
    const { webhooks, errors, url } = await receiver()
    let attempts = 0
    const succeeded: string[] = []
    webhooks.on('charge.confirmed', (event) => {
      attempts++
      if (attempts === 1) throw new Error('database is down')
      succeeded.push(event.id)
    })
    const id = events.add('charge.confirmed')
    const failed = await postDelivery(url, { id, type: 'charge.confirmed' })
    expect(failed.status).toBe(500)
    expect(failed.body?.error.code).toBe('handler_failed')
    expect(failed.body?.error.message).not.toContain('database is down') // internals stay inside
    expect(errors[0]?.code).toBe('handler_failed')
    expect(errors[0]?.cause).toEqual(new Error('database is down'))
    expect((await postDelivery(url, { id, type: 'charge.confirmed' })).status).toBe(200)
    expect((await postDelivery(url, { id, type: 'charge.confirmed' })).body?.status).toBe(
      'duplicate',
    )
    expect(succeeded).toEqual([id])
    expect(attempts).toBe(2)
  })

  it('answers 503 on a timeout, aborts the signal, and keeps the claim until the handler settles', async () => {
    const { webhooks, errors, url } = await receiver({ handlerTimeoutMs: 50 })
    const release = deferred()
    const signals: AbortSignal[] = []
    let calls = 0
    webhooks.on('charge.created', async (_event, { signal }) => {
      calls++
      signals.push(signal)
      await release.promise // ignores the abort on purpose: it finishes its work late
    })
    const id = events.add('charge.created')
    const slow = await postDelivery(url, { id, type: 'charge.created' })
    expect(slow.status).toBe(503)
    expect(slow.body?.error.code).toBe('handler_timeout')
    expect(signals[0]?.aborted).toBe(true)
    expect((await postDelivery(url, { id, type: 'charge.created' })).status).toBe(409)
    release.resolve()
    await expect
      .poll(async () => (await postDelivery(url, { id, type: 'charge.created' })).body?.status)
      .toBe('duplicate')
    expect(calls).toBe(1)
    expect(errors.map((error) => error.code)).toEqual(['handler_timeout'])
  })

  it('hands a handler that first reads its signal after the timeout an aborted one', async () => {
    const { webhooks, url } = await receiver({ handlerTimeoutMs: 50 })
    const release = deferred()
    const reasons: unknown[] = []
    webhooks.on('charge.created', async (_event, context) => {
      await release.promise
      reasons.push(context.signal.aborted && context.signal.reason)
    })
    const id = events.add('charge.created')
    expect((await postDelivery(url, { id, type: 'charge.created' })).status).toBe(503)
    release.resolve()
    await expect.poll(() => reasons.length).toBe(1)
    expect(reasons[0]).toMatchObject({ name: 'WebhooksError', code: 'handler_timeout' })
  })

  it('releases a timed-out event whose handler then fails, so the retry runs it', async () => {
    const { webhooks, url } = await receiver({ handlerTimeoutMs: 50 })
    let calls = 0
    webhooks.on('charge.created', async (_event, { signal }) => {
      calls++
      if (calls > 1) return
      await new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason)),
      )
    })
    const id = events.add('charge.created')
    expect((await postDelivery(url, { id, type: 'charge.created' })).status).toBe(503)
    await expect
      .poll(async () => (await postDelivery(url, { id, type: 'charge.created' })).status)
      .toBe(200)
    expect(calls).toBe(2)
  })

  it('keeps a late failure of a timed-out run from freeing the claim a retry took over', async () => {
    let now = 0
    const store = createMemoryDeliveryStore({ now: () => now })
    const { webhooks, errors, url } = await receiver({
      store,
      handlerTimeoutMs: 50,
      claimTtlMs: 50,
    })
    const firstFails = deferred()
    const secondStarted = deferred()
    const secondFinishes = deferred()
    let calls = 0
    webhooks.on('charge.created', async () => {
      calls++
      if (calls === 1) {
        await firstFails.promise
        throw new Error('gave up after the timeout')
      }
      secondStarted.resolve()
      await secondFinishes.promise
    })
    const id = events.add('charge.created')
    const delivery = { id, type: 'charge.created' }
    expect((await postDelivery(url, delivery)).status).toBe(503)
    now += 50 // the first run outlived its claim
    const retry = postDelivery(url, delivery)
    await secondStarted.promise // the retry took the claim over and runs the handler
    firstFails.resolve() // the first run now fails and releases its (stale) claim
    await expect.poll(() => errors.map((error) => error.code)).toContain('handler_failed')
    const third = await postDelivery(url, delivery)
    expect(third.status).toBe(409) // the retry's claim still holds: no third concurrent run
    secondFinishes.resolve()
    await retry // answered 200, or 503 if it too outran the timeout: either way it completes
    await expect
      .poll(async () => (await postDelivery(url, delivery)).body?.status)
      .toBe('duplicate')
    expect(calls).toBe(2)
  })

  it('answers 503 naming the expected shape when a store returns something else from claim', async () => {
    const outdated = {
      claim: () => 'claimed',
      complete: () => {},
      release: () => {},
    } as unknown as DeliveryStore
    const { webhooks, errors, url } = await receiver({ store: outdated })
    let calls = 0
    webhooks.onAny(() => void calls++)
    const answer = await postDelivery(url, {
      id: events.add('charge.created'),
      type: 'charge.created',
    })
    expect(answer.status).toBe(503)
    expect(answer.body?.error.code).toBe('store_failed')
    expect(errors[0]?.message).toMatch(
      /claim must return \{ status: 'claimed', lease: string \}.*got "claimed"/,
    )
    expect(calls).toBe(0)
  })

  it('answers 503 when the store cannot claim, and acknowledges if only completing fails', async () => {
    const broken: DeliveryStore = {
      claim: () => Promise.reject(new Error('redis unreachable')),
      complete: () => {},
      release: () => {},
    }
    const { webhooks, url } = await receiver({ store: broken })
    let calls = 0
    webhooks.onAny(() => void calls++)
    const refused = await postDelivery(url, {
      id: events.add('charge.created'),
      type: 'charge.created',
    })
    expect(refused.status).toBe(503)
    expect(refused.body?.error).toEqual({
      code: 'store_failed',
      message: expect.stringMatching(/failed to claim .*redis unreachable/),
    })
    expect(calls).toBe(0)

    const forgetful = createMemoryDeliveryStore()
    const flaky: DeliveryStore = {
      ...forgetful,
      complete: () => {
        throw new Error('write lost')
      },
    }
    const second = await receiver({ store: flaky })
    second.webhooks.onAny(() => void calls++)
    const answer = await postDelivery(second.url, {
      id: events.add('charge.created'),
      type: 'charge.created',
    })
    expect(answer.status).toBe(200)
    expect(calls).toBe(1)
    expect(second.errors.map((error) => error.code)).toEqual(['store_failed'])
  })
})

describe('reading deliveries', () => {
  it('reads the query when the body has a content type it does not know, 400 without it', async () => {
    const { webhooks, url } = await receiver()
    const seen: string[] = []
    webhooks.on('charge.created', (event) => void seen.push(event.id))
    const id = events.add('charge.created')
    const post = (target: string) =>
      fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: `<event id="${id}" type="charge.created"/>`,
      })
    const withQuery = await post(`${url}?event=${id}&event_type=charge.created`)
    expect(withQuery.status).toBe(200)
    expect(await withQuery.json()).toMatchObject({ status: 'processed', id })
    const bodyOnly = await post(url)
    expect(bodyOnly.status).toBe(400)
    expect((await bodyOnly.json()).error.message).toMatch(
      /Unsupported content-type "application\/xml"/,
    )
    expect(seen).toEqual([id])
  })

  it('measures a body handed over as a string in UTF-8 bytes against the 64 KiB limit', async () => {
    const webhooks = createWebhooks({ client: client() })
    const id = events.add('charge.created')
    const deliver = (padding: string) =>
      webhooks.handleDelivery({
        method: 'POST',
        url: '/webhooks',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id, type: 'charge.created', padding }),
      })
    // 25 000 characters either way: 25 000 bytes in ASCII, 75 000 bytes as "€".
    expect((await deliver('e'.repeat(25_000))).status).toBe(200)
    const multiByte = await deliver('€'.repeat(25_000))
    expect(multiByte.status).toBe(413)
    expect(JSON.parse(multiByte.body).error.code).toBe('payload_too_large')
  })
})

describe('receive() for callers with their own transport', () => {
  it('returns the result, or throws a WebhooksError carrying the status to answer', async () => {
    const webhooks = createWebhooks({ client: client() })
    const seen: string[] = []
    webhooks.on('charge.created', (event) => void seen.push(event.id))
    const id = events.add('charge.created')
    const result = await webhooks.receive({ id, type: 'charge.created' })
    expect(result.status).toBe('processed')
    expect(result.event.id).toBe(id)
    expect((await webhooks.receive({ id, type: 'charge.created' })).status).toBe('duplicate')
    await expect(webhooks.receive({ id, type: 'charge.error' })).rejects.toMatchObject({
      name: 'WebhooksError',
      code: 'event_mismatch',
      status: 401,
      retryable: false,
    })
    expect(seen).toEqual([id])
  })
})

describe('options', () => {
  it('refuses a missing client and inconsistent durations with a message saying what to pass', () => {
    // @ts-expect-error: client is required
    expect(() => createWebhooks({})).toThrow(/client.*events\.retrieve.*createClient/)
    expect(() => createWebhooks({ client: client(), handlerTimeoutMs: 0 })).toThrow(
      /handlerTimeoutMs/,
    )
    expect(() =>
      createWebhooks({ client: client(), handlerTimeoutMs: 5_000, claimTtlMs: 1_000 }),
    ).toThrow(/claimTtlMs must be finite and at least handlerTimeoutMs/)
    expect(() => createWebhooks({ client: client(), secret: 'whsec_***' })).toThrow(/base64/)
  })

  it('names an unknown option with the one it likely misspells, and a bad store or secret by what they must be', () => {
    const store = createMemoryDeliveryStore()
    expect(
      configurationRefusal(() =>
        // @ts-expect-error: a misspelt option
        createWebhooks({ client: client(), store, handlerTimeout: 5_000 }),
      ),
    ).toBe(
      'createWebhooks: unknown option handlerTimeout (did you mean handlerTimeoutMs?); the options are client, store, secret, toleranceSeconds, handlerTimeoutMs, claimTtlMs.',
    )
    // @ts-expect-error: not a store
    expect(configurationRefusal(() => createWebhooks({ client: client(), store: {} }))).toMatch(
      /^createWebhooks: store must be a DeliveryStore with claim, complete and release methods/,
    )
    // A secret is never repeated back, even a malformed one.
    const secretRefusal = configurationRefusal(() =>
      // @ts-expect-error: not a secret
      createWebhooks({ client: client(), store, secret: [42, 'whsec_c2VjcmV0'] }),
    )
    expect(secretRefusal).toMatch(/^createWebhooks: secret must be a signing secret/)
    expect(secretRefusal).not.toContain('c2VjcmV0')
    expect(
      configurationRefusal(() => createWebhooks({ client: client(), store, toleranceSeconds: -1 })),
    ).toBe('createWebhooks: toleranceSeconds must be a finite number of seconds >= 0; got -1.')
    const webhooks = createWebhooks({ client: client(), store })
    // @ts-expect-error: a misspelt option
    expect(configurationRefusal(() => createNodeMiddleware(webhooks, { pth: '/hooks' }))).toMatch(
      /unknown option options\.pth \(did you mean path\?\)/,
    )
    expect(configurationRefusal(() => createNodeMiddleware(webhooks, { path: 'hooks' }))).toBe(
      'createNodeMiddleware: options.path must be a path such as "/webhooks"; got "hooks".',
    )
    // @ts-expect-error: not a receiver
    expect(configurationRefusal(() => createNodeMiddleware({}))).toMatch(
      /^createNodeMiddleware: webhooks must be what createWebhooks\(\{ client \}\) returns/,
    )
  })

  it('warns once per process that the default store is this process only; a given store silences it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      // A fresh copy of the package: whether this process was warned is module state.
      vi.resetModules()
      const fresh = await import('@chargekit/webhooks')
      fresh.createWebhooks({ client: client(), store: fresh.createMemoryDeliveryStore() })
      expect(warn).not.toHaveBeenCalled()
      fresh.createWebhooks({ client: client() })
      fresh.createWebhooks({ client: client() })
      expect(warn).toHaveBeenCalledTimes(1)
      const [message] = warn.mock.calls[0] as [string]
      expect(message).toContain('createWebhooks was given no `store`')
      expect(message).toContain('after a restart, or when another process')
      expect(message).toContain('createSqlDeliveryStore')
      expect(message).toContain('store: createMemoryDeliveryStore()')
    } finally {
      warn.mockRestore()
    }
  })
})
