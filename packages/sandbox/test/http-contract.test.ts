import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, type SandboxLogger, type SandboxStore } from '../src/index'
import { authorization, startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'

const owner = { id: 'acct_owner', key: 'sk_owner_0123456789' }
const stranger = { id: 'acct_stranger', key: 'sk_stranger_9876543210' }
const limited = {
  id: 'acct_limited',
  key: 'sk_limited',
  rateLimit: { requestsPerSecond: 0.5, burst: 2 },
}
const logLines: string[] = []
const logger: SandboxLogger = {
  info: (message, fields) => logLines.push(`${message} ${JSON.stringify(fields)}`),
  warn: (message, fields) => logLines.push(`${message} ${JSON.stringify(fields)}`),
  error: (message, fields) =>
    logLines.push(`${message} ${JSON.stringify(fields)} ${String(fields?.error)}`),
}
let harness: TestSandbox

// A store that breaks on one call, to see how the API answers a bug: the full list of an
// instrument's reversals, which only a capture's checks read (events look up the latest one).
const memory = createMemoryStore()
const brokenStore: SandboxStore = {
  ...memory,
  listObjects(accountId, kind, filter, page) {
    if (kind === 'reversal' && page.limit > 1) throw new Error('secret internal detail at /srv/db')
    return memory.listObjects(accountId, kind, filter, page)
  },
}

beforeAll(async () => {
  harness = await startTestSandbox({
    accounts: [owner, stranger, limited],
    logger,
    store: brokenStore,
  })
})
afterAll(() => harness.close())

async function ownerFlow() {
  const api = harness.as(owner)
  const charge = await api('POST', '/charges', {
    charge_type: 'card_onetime',
    amount: 30,
    currency: 'USD',
    events_url: harness.eventsUrl,
    metadata: { order: 'owned' },
  })
  const instrument = await api('POST', '/instruments', testCard(charge.body.id))
  const payment = (await api('GET', `/payments?charge=${charge.body.id}`)).body.collection[0]
  const refund = await api('POST', `/payments/${payment.id}/refund`, { amount: 1 })
  const dispute = await api('POST', `/test/payments/${payment.id}/dispute`, { amount: 1 })
  const event = (await api('GET', `/events?charge=${charge.body.id}`)).body.collection[0]
  return {
    charge: charge.body.id as string,
    instrument: instrument.body.id as string,
    payment: payment.id as string,
    refund: refund.body.id as string,
    dispute: dispute.body.id as string,
    event: event.id as string,
  }
}

describe('authentication', () => {
  const raw = (path: string, init: RequestInit = {}) =>
    fetch(`${harness.sandbox.apiUrl}${path}`, init)

  it.each([
    ['no credentials', undefined],
    ['a wrong key', authorization(owner.id, 'sk_wrong')],
    ['an unknown account', authorization('acct_nobody', owner.key)],
    ['another scheme', `Bearer ${owner.key}`],
    ['garbage', 'Basic !!!'],
  ])('answers 401 with WWW-Authenticate for %s', async (_, authorization) => {
    const response = await raw(
      '/charges',
      authorization === undefined ? {} : { headers: { authorization } },
    )
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic /)
    expect(response.headers.get('request-id')).toMatch(/^req_/)
    const body = await response.json()
    expect(body).toMatchObject({
      failure_code: '05.03.0002',
      failure_description: 'Merchant Authorization Error',
    })
  })

  it.each([
    ['POST', '/charges'],
    ['GET', '/charges/ch_x'],
    ['POST', '/instruments'],
    ['DELETE', '/instruments/in_x'],
    ['POST', '/instruments/in_x/reversal'],
    ['POST', '/payments'],
    ['GET', '/payments'],
    ['POST', '/payments/pa_x/refund'],
    ['GET', '/refunds/re_x'],
    ['GET', '/events'],
    ['GET', '/events/ev_x'],
    ['POST', '/events/ev_x/redeliver'],
    ['POST', '/events/ev_x/dismiss'],
    ['POST', '/test/settlements'],
    ['POST', '/test/payments/pa_x/dispute'],
    ['POST', '/test/disputes/dp_x/settle'],
    ['POST', '/test/instruments/in_x/approve'],
    ['POST', '/test/instruments/in_x/decline'],
    ['POST', '/test/instruments/in_x/pay'],
    ['POST', '/test/instruments/in_x/expire'],
    ['GET', '/requests'],
    ['POST', '/charges/'],
    ['GET', '/no/such/endpoint'],
  ])('guards %s %s', async (method, path) => {
    const response = await raw(path, { method })
    expect(response.status).toBe(401)
  })
})

describe('account isolation', () => {
  it('answers 404 for every id of another account, and lists none of them', async () => {
    const ids = await ownerFlow()
    const api = harness.as(stranger)
    const notFound = [
      await api('GET', `/charges/${ids.charge}`),
      await api('GET', `/instruments/${ids.instrument}`),
      await api('GET', `/payments/${ids.payment}`),
      await api('GET', `/refunds/${ids.refund}`),
      await api('GET', `/disputes/${ids.dispute}`),
      await api('GET', `/events/${ids.event}`),
      await api('POST', '/instruments', testCard(ids.charge)),
      await api('POST', '/payments', { instrument: ids.instrument, amount: 1, currency: 'USD' }),
      await api('POST', `/payments/${ids.payment}/refund`, { amount: 1 }),
      await api('POST', `/instruments/${ids.instrument}/reversal`),
      await api('POST', `/test/payments/${ids.payment}/dispute`),
      await api('POST', `/test/disputes/${ids.dispute}/settle`, { outcome: 'won' }),
      await api('POST', `/test/instruments/${ids.instrument}/expire`),
      await api('POST', `/events/${ids.event}/redeliver`),
      await api('POST', `/events/${ids.event}/dismiss`),
    ]
    for (const answer of notFound) {
      expect(answer.status).toBe(404)
      expect(answer.body.message).toEqual(expect.any(String))
    }
    expect((await api('GET', `/events?charge=${ids.charge}`)).body.pagination.total).toBe(0)
    expect((await api('GET', '/charges')).body.pagination.total).toBe(0)
    expect((await api('GET', '/payments')).body.pagination.total).toBe(0)
    // Nothing of the owner's changed.
    const event = await harness.as(owner)('GET', `/events/${ids.event}`)
    expect(event.body.dismissed_at).toBeNull()
    // Each account lists only its own requests: the owner's refund, not the stranger's 404.
    const refundPath = `/v2/payments/${ids.payment}/refund`
    const listed = async (caller: typeof api) =>
      (await caller('GET', '/requests?per_page=100')).body.collection
        .filter((request: { path: string }) => request.path === refundPath)
        .map((request: { status: number }) => request.status)
    expect(await listed(api)).toEqual([404])
    expect(await listed(harness.as(owner))).toEqual([201])
    // The stranger's settlement does not touch the owner's payments.
    const settlement = await api('POST', '/test/settlements')
    expect(settlement.body.payments).toEqual([])
  })
})

describe('request and answer rules', () => {
  const post = (path: string, init: RequestInit) =>
    fetch(`${harness.sandbox.apiUrl}${path}`, {
      method: 'POST',
      ...init,
      headers: { authorization: authorization(owner.id, owner.key), ...(init.headers ?? {}) },
    })

  it('answers 415 for a body that is neither JSON nor a form', async () => {
    const response = await post('/charges', {
      body: 'amount=1',
      headers: { 'content-type': 'text/plain' },
    })
    expect(response.status).toBe(415)
    expect(await response.json()).toMatchObject({ failure_code: '01.01.0000' })
  })

  it('answers 413 for a body over 1 MB, read or announced', async () => {
    const big = JSON.stringify({ charge_type: 'x'.repeat(1024 * 1024) })
    const response = await post('/charges', {
      body: big,
      headers: { 'content-type': 'application/json' },
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ failure_code: '01.01.0000' })
  })

  it('answers 400 01.01.0000 for malformed JSON and non-objects', async () => {
    for (const body of ['{"amount":', '[1,2]', '"text"', 'null']) {
      const response = await post('/charges', {
        body,
        headers: { 'content-type': 'application/json' },
      })
      expect(response.status).toBe(400)
      const json = await response.json()
      expect(json.failure_code).toBe('01.01.0000')
      expect(json.parameters['(root)']).toBeDefined()
    }
  })

  it('names every invalid field with what was expected; an unknown field only warns', async () => {
    const answer = await harness.as(owner)('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 10.123,
      currency: 'usd',
      events_url: 'http://merchant.example/events',
      channels: ['card_onetime_nowhere'],
      metadata: { ['__proto__']: 'x', nested: { no: true } },
      extra: 1,
    })
    expect(answer.status).toBe(400)
    // The unknown channel is reported in the same answer as the schema's problems.
    expect(Object.keys(answer.body.parameters).sort()).toEqual(
      ['channels.0', 'currency', 'events_url', 'metadata.__proto__', 'metadata.nested'].sort(),
    )
    expect(answer.headers.get('chargekit-integration-warnings')).toBe(
      'unknown_field;field="extra";instead="no extra field"',
    )
  })

  it('refuses unknown channels, amounts too precise for the currency, and unknown charge types', async () => {
    const api = harness.as(owner)
    const base = {
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'USD',
      events_url: harness.eventsUrl,
    }
    const channel = await api('POST', '/charges', {
      ...base,
      channels: ['card_recurring_no_processor'],
    })
    expect(channel.body.parameters['channels.0']).toBeDefined()
    const yen = await api('POST', '/charges', { ...base, currency: 'JPY', amount: 10.5 })
    expect(yen.body.parameters.amount).toBeDefined()
    const dinar = await api('POST', '/charges', { ...base, currency: 'BHD', amount: 10.125 })
    expect(dinar.status).toBe(201)
    const type = await api('POST', '/charges', { ...base, charge_type: 'bank_transfer' })
    expect(type.body.parameters.charge_type).toBeDefined()
  })

  it.each([
    ['/events?chrage=ch_x', 'chrage', 'metadata[key]'],
    ['/events?type=charge.created&metadata[order]=A&__proto__=1', '__proto__', 'delivery_status'],
    ['/charges?pages=2', 'pages', 'per_page'],
    ['/payments?instrumnet=in_x&per_page=5', 'instrumnet', 'instrument'],
  ])('refuses an unknown query parameter: GET %s', async (path, parameter, accepted) => {
    const answer = await harness.as(owner)('GET', path)
    expect(answer.status).toBe(400)
    expect(answer.body.failure_code).toBe('01.01.0000')
    expect(Object.keys(answer.body.parameters)).toEqual([parameter])
    expect(answer.body.parameters[parameter]).toEqual([
      expect.stringMatching(/^Unknown query parameter: expected only page, per_page\b/),
    ])
    expect(answer.body.parameters[parameter][0]).toContain(accepted)
  })

  it('answers unknown endpoints with 404 JSON and a Request-Id', async () => {
    const answer = await harness.as(owner)('GET', '/nowhere')
    expect(answer.status).toBe(404)
    expect(answer.body.message).toContain('/v2/nowhere')
    expect(answer.headers.get('request-id')).toMatch(/^req_/)
  })

  it('rate-limits per account with 429, Retry-After and 02.01.0000', async () => {
    const api = harness.as(limited)
    const statuses: number[] = []
    let last: Awaited<ReturnType<typeof api>> | undefined
    for (let attempt = 0; attempt < 4; attempt++) {
      last = await api('GET', '/charges')
      statuses.push(last.status)
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200])
    expect(statuses.at(-1)).toBe(429)
    expect(last?.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(last?.body.failure_code).toBe('02.01.0000')
    // Other accounts are not affected.
    expect((await harness.as(owner)('GET', '/charges')).status).toBe(200)
  })

  it('answers a bug with 500 99.01.0000 and no internals, and logs it', async () => {
    const api = harness.as(owner)
    const charge = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'USD',
      events_url: harness.eventsUrl,
      instrument_params: { captured_on_creation: false },
    })
    const instrument = await api('POST', '/instruments', testCard(charge.body.id))
    const answer = await api('POST', '/payments', {
      instrument: instrument.body.id,
      amount: 1,
      currency: 'USD',
    })
    expect(answer.status).toBe(500)
    expect(answer.body).toMatchObject({
      failure_code: '99.01.0000',
      failure_description: 'Internal Server Error',
    })
    expect(JSON.stringify(answer.body)).not.toContain('secret')
    expect(logLines.some((line) => line.includes('secret internal detail'))).toBe(true)
    expect(logLines.some((line) => line.includes(answer.headers.get('request-id') ?? '?'))).toBe(
      true,
    )
  })

  it('never logs credentials', () => {
    const logs = logLines.join('\n')
    for (const secret of [owner.key, stranger.key, authorization(owner.id, owner.key)])
      expect(logs).not.toContain(secret)
  })
})
