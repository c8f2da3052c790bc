import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxLogger } from '../src/index'
import {
  type ApiAnswer,
  authorization,
  startTestSandbox,
  type TestSandbox,
  testCard,
} from '../src/testing/index'

/**
 * Requests written for the production service, sent as raw HTTP: each lenience is accepted with
 * its integration warning, and what the service states strictly stays strict.
 */

const account = { id: 'acct_production', key: 'sk_production' }
const logLines: { message: string; fields: Record<string, unknown> }[] = []
const logger: SandboxLogger = {
  info: (message, fields = {}) => logLines.push({ message, fields }),
  warn: () => {},
  error: () => {},
}
let harness: TestSandbox

beforeAll(async () => {
  harness = await startTestSandbox({ accounts: [account], logger, deliverEvents: false })
})
afterAll(() => harness.close())

const warningsHeader = 'chargekit-integration-warnings'

/** Sends `body` as given (text), with the content type given, to /v2{path}. */
async function send(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const response = await fetch(`${harness.sandbox.apiUrl}${path}`, {
    method,
    headers: { authorization: authorization(account.id, account.key), ...headers },
    redirect: 'manual',
    ...(body === undefined ? {} : { body }),
  })
  return { status: response.status, headers: response.headers, body: await response.json() }
}

const json = (value: unknown) => JSON.stringify(value)
const asJson = { 'content-type': 'application/json' }
const asForm = { 'content-type': 'application/x-www-form-urlencoded' }

function chargeFields(overrides: Record<string, unknown> = {}) {
  return {
    charge_type: 'card_onetime',
    amount: 20.5,
    currency: 'USD',
    events_url: harness.eventsUrl,
    ...overrides,
  }
}

/** A charge as form fields, every value text. */
function chargeForm(overrides: Record<string, unknown> = {}): string {
  return new URLSearchParams(
    Object.entries(chargeFields(overrides)).map(([key, value]) => [key, String(value)]),
  ).toString()
}

/** The warnings header as [code, field] pairs. */
function warningsOf(answer: ApiAnswer): [string, string | undefined][] {
  const header = answer.headers.get(warningsHeader)
  if (header === null) return []
  return header.split(/,\s*(?=[a-z_]+(?:;|$))/).map((member) => {
    const [code = '', ...parameters] = member.split(';')
    const field = parameters.find((parameter) => parameter.startsWith('field='))
    return [code, field === undefined ? undefined : JSON.parse(field.slice('field='.length))]
  })
}

async function chargeCount(): Promise<number> {
  return (await harness.api('GET', '/charges?per_page=1')).body.pagination.total
}

/** A charge captured on demand, with an authorized instrument: ids for payments and refunds. */
async function authorizedInstrument() {
  const charge = await harness.api(
    'POST',
    '/charges',
    chargeFields({ instrument_params: { captured_on_creation: false } }),
  )
  const instrument = await harness.api('POST', '/instruments', testCard(charge.body.id))
  expect(instrument.body.status).toBe('authorized')
  return { charge: charge.body.id as string, instrument: instrument.body.id as string }
}

describe('trailing slashes', () => {
  it('name the same resource on every method, without a redirect, with a warning', async () => {
    const charge = await send('POST', '/charges/', json(chargeFields()), asJson)
    expect(charge.status).toBe(201)
    expect(warningsOf(charge)).toEqual([['trailing_slash', undefined]])
    expect(charge.headers.get(warningsHeader)).toBe('trailing_slash;instead="POST /v2/charges"')

    const { instrument } = await authorizedInstrument()
    const payment = await send(
      'POST',
      '/payments/',
      json({ instrument, amount: 20.5, currency: 'USD' }),
      asJson,
    )
    expect(payment.status).toBe(201)
    const refund = await send(
      'POST',
      `/payments/${payment.body.id}/refund/`,
      json({ amount: 1 }),
      asJson,
    )
    expect(refund.status).toBe(201)
    expect(refund.body.amount).toBe(1)
    const read = await send('GET', `/charges/${charge.body.id}/`)
    expect(read.status).toBe(200)
    expect(read.body.id).toBe(charge.body.id)
    const events = await send('GET', `/events/?charge=${charge.body.id}`)
    const event = await send('GET', `/events/${events.body.collection[0].id}/`)
    expect(event.status).toBe(200)
    expect(warningsOf(event)).toEqual([['trailing_slash', undefined]])

    // Only one slash is forgiven, and unknown paths stay unknown.
    expect((await send('GET', '/charges//')).status).toBe(404)
    expect((await send('GET', '/nowhere/')).status).toBe(404)
    // A request without a slash has no warning at all.
    expect(read.headers.get(warningsHeader)).not.toBeNull()
    expect((await send('GET', '/charges')).headers.get(warningsHeader)).toBeNull()
  })
})

describe('numbers sent as strings', () => {
  it('are read exactly, with the precision rules of numbers, and warned about', async () => {
    const charge = await send('POST', '/charges', json(chargeFields({ amount: '20.50' })), asJson)
    expect(charge.status).toBe(201)
    expect(charge.body.amount).toBe(20.5)
    expect(warningsOf(charge)).toEqual([['numeric_string', 'amount']])
    expect(charge.headers.get(warningsHeader)).toContain('instead="amount as a JSON number"')

    const year = String(new Date().getUTCFullYear() + 3)
    const instrument = await send(
      'POST',
      '/instruments',
      json(testCard(charge.body.id, { expiration_month: '12', expiration_year: year })),
      asJson,
    )
    expect(instrument.status).toBe(201)
    expect(instrument.body.params).toMatchObject({
      expiration_month: 12,
      expiration_year: Number(year),
    })
    expect(warningsOf(instrument)).toEqual([
      ['numeric_string', 'expiration_month'],
      ['numeric_string', 'expiration_year'],
    ])
  })

  it.each([
    [
      'too many decimals for the currency',
      { amount: '20.505' },
      'amount',
      /at most 2 decimals for USD/,
    ],
    [
      'decimals in a currency without them',
      { amount: '10.5', currency: 'JPY' },
      'amount',
      /whole number/,
    ],
    [
      'more than the exact maximum',
      { amount: '10000000000000.00' },
      'amount',
      /at most 9999999999999\.99 USD/,
    ],
    [
      'more digits than a JSON number holds',
      { amount: '20.50000000000000000001' },
      'amount',
      /15 significant digits/,
    ],
    ['not a number', { amount: 'abc' }, 'amount', /^Expected the amount to charge: a number/],
    ['an exponent', { amount: '2e1' }, 'amount', /^Expected the amount to charge: a number/],
    ['spaces', { amount: ' 20.5' }, 'amount', /^Expected the amount to charge: a number/],
    ['a negative amount', { amount: '-5' }, 'amount', /positive/],
    ['the wrong type altogether', { amount: true }, 'amount', /number/],
  ])(
    'still refuses %s: 400 naming the field, nothing created',
    async (_, overrides, field, message) => {
      const before = await chargeCount()
      const answer = await send('POST', '/charges', json(chargeFields(overrides)), asJson)
      expect(answer.status).toBe(400)
      expect(answer.body.failure_code).toBe('01.01.0000')
      expect(Object.keys(answer.body.parameters)).toEqual([field])
      expect(answer.body.parameters[field].join(' ')).toMatch(message)
      expect(await chargeCount()).toBe(before)
    },
  )

  it('refuses a month that is not a whole number, even as text', async () => {
    const charge = await harness.api('POST', '/charges', chargeFields())
    const answer = await send(
      'POST',
      '/instruments',
      json(testCard(charge.body.id, { expiration_month: '12.5', cvc: 123 })),
      asJson,
    )
    expect(answer.status).toBe(400)
    // A cvc is text: a number there is still the wrong type.
    expect(Object.keys(answer.body.parameters).sort()).toEqual(['cvc', 'expiration_month'])
    expect((await harness.api('GET', `/charges/${charge.body.id}`)).body.failure_code).toBeNull()
  })
})

describe('amounts computed in floating point', () => {
  it('are read as the amount they stand for, with what was read and what to send', async () => {
    // PHP's `$deposit + $tax`, 10.10 and 10.70.
    const charge = await send(
      'POST',
      '/charges',
      json(chargeFields({ amount: 10.1 + 10.7, currency: 'EUR' })),
      asJson,
    )
    expect(10.1 + 10.7).toBe(20.799999999999997)
    expect(charge.status).toBe(201)
    expect(charge.body.amount).toBe(20.8)
    expect(warningsOf(charge)).toEqual([['float_amount', 'amount']])
    expect(charge.headers.get(warningsHeader)).toBe(
      'float_amount;field="amount";instead="amount rounded to 2 decimals for EUR: 20.8"',
    )
    const recent = (await harness.api('GET', '/requests?per_page=1')).body.collection[0]
    expect(recent.warnings[0].message).toBe(
      'amount 20.799999999999997 has more decimals than EUR allows, but is 20.8 computed in floating point: read as 20.8',
    )
  })

  it('are read so in every request that carries an amount, as text too', async () => {
    const { instrument } = await authorizedInstrument()
    const payment = await send(
      'POST',
      '/payments',
      json({ instrument, amount: 0.1 + 0.2, currency: 'USD' }),
      asJson,
    )
    expect(payment.status).toBe(201)
    expect(payment.body.amount).toBe(0.3)
    expect(warningsOf(payment)).toEqual([['float_amount', 'amount']])
    // A refund names no currency: its amount is read in the payment's.
    const refund = await send(
      'POST',
      `/payments/${payment.body.id}/refund`,
      json({ amount: 0.30000000000000004 - 0.1 }),
      asJson,
    )
    expect(refund.status).toBe(201)
    expect(refund.body.amount).toBe(0.2)
    expect(warningsOf(refund)).toEqual([['float_amount', 'amount']])
    const asText = await send(
      'POST',
      '/charges',
      json(chargeFields({ amount: '1500.0000000000002', currency: 'JPY' })),
      asJson,
    )
    expect(asText.status).toBe(201)
    expect(asText.body.amount).toBe(1500)
    expect(warningsOf(asText)).toEqual([
      ['numeric_string', 'amount'],
      ['float_amount', 'amount'],
    ])
    expect(asText.headers.get(warningsHeader)).toContain(
      'instead="amount as a whole number of JPY: 1500"',
    )
  })

  it('are not rounded when finer than 1e-9 from any amount of the currency', async () => {
    const before = await chargeCount()
    for (const amount of [20.505, 20.800000002, 1e-7]) {
      const answer = await send('POST', '/charges', json(chargeFields({ amount })), asJson)
      expect(answer.status, String(amount)).toBe(400)
      expect(Object.keys(answer.body.parameters)).toEqual(['amount'])
    }
    expect(await chargeCount()).toBe(before)
  })
})

describe('a charge metadata string', () => {
  it('is kept and returned exactly as sent, with a warning naming the object to send', async () => {
    const charge = await send(
      'POST',
      '/charges/',
      json(chargeFields({ metadata: '42|1001' })),
      asJson,
    )
    expect(charge.status).toBe(201)
    expect(charge.body.metadata).toBe('42|1001')
    expect(warningsOf(charge)).toEqual([
      ['trailing_slash', undefined],
      ['string_metadata', 'metadata'],
    ])
    expect(charge.headers.get(warningsHeader)).toContain(
      'instead="metadata as an object of flat values, such as {\\"order_id\\": \\"1001\\"}"',
    )
    expect((await send('GET', `/charges/${charge.body.id}`)).body.metadata).toBe('42|1001')
    const [event] = (await send('GET', `/events?charge=${charge.body.id}&type=charge.created`)).body
      .collection
    expect(event.charge.metadata).toBe('42|1001')
  })

  it('is a form field too, and matches no metadata[key] search', async () => {
    const charge = await send('POST', '/charges', chargeForm({ metadata: '42|1001' }), asForm)
    expect(charge.status).toBe(201)
    expect(charge.body.metadata).toBe('42|1001')
    expect(warningsOf(charge).map(([code]) => code)).toContain('string_metadata')
    // A string's own keys are its character positions: none of them is metadata.
    for (const path of ['/charges?per_page=100&', `/events?charge=${charge.body.id}&`]) {
      const found = await send('GET', `${path}metadata[0]=4`)
      expect(found.status).toBe(200)
      expect(found.body.collection.map((item: { id: string }) => item.id)).not.toContain(
        charge.body.id,
      )
    }
  })

  it('is bounded like the values of an object, and anything else is refused', async () => {
    const before = await chargeCount()
    const long = await send(
      'POST',
      '/charges',
      json(chargeFields({ metadata: 'x'.repeat(25_001) })),
      asJson,
    )
    expect(long.status).toBe(400)
    expect(long.body.parameters).toEqual({ metadata: ['Expected at most 25000 characters'] })
    const nested = await send(
      'POST',
      '/charges',
      json(chargeFields({ metadata: { order: { id: 1 } } })),
      asJson,
    )
    expect(nested.body.parameters).toEqual({
      'metadata.order': ['Expected a string, number, boolean or null (metadata values are flat)'],
    })
    const number = await send('POST', '/charges', json(chargeFields({ metadata: 7 })), asJson)
    expect(number.body.parameters).toEqual({
      metadata: [
        'Expected an object of flat values (string, number, boolean or null), or a string',
      ],
    })
    expect(await chargeCount()).toBe(before)
  })
})

describe('unknown fields and null', () => {
  it('ignores unknown fields at every level, naming each, with a "did you mean"', async () => {
    const charge = await send(
      'POST',
      '/charges',
      json(
        chargeFields({
          redirectUrl: 'https://shop.example/back',
          instrument_params: { captured_on_creaton: false, enable3ds: false },
          shop_reference: 'A-17',
        }),
      ),
      asJson,
    )
    expect(charge.status).toBe(201)
    expect(charge.body.redirect_url).toBe('')
    // The misspelt option did not apply: the default (capture on creation) holds.
    expect(charge.body.instrument_params).toMatchObject({
      captured_on_creation: true,
      enable3ds: false,
    })
    expect(charge.body.instrument_params).not.toHaveProperty('captured_on_creaton')
    const header = charge.headers.get(warningsHeader) ?? ''
    expect(warningsOf(charge)).toEqual([
      ['unknown_field', 'redirectUrl'],
      ['unknown_field', 'instrument_params.captured_on_creaton'],
      ['unknown_field', 'shop_reference'],
    ])
    expect(header).toContain('instead="redirect_url"')
    expect(header).toContain('instead="instrument_params.captured_on_creation"')
    expect(header).toContain('instead="no shop_reference field"')

    const instrument = await send(
      'POST',
      '/instruments',
      json(testCard(charge.body.id, { card_type: 'visa', address: { city: 'Porto' } })),
      asJson,
    )
    expect(instrument.status).toBe(201)
    expect(instrument.body.params).not.toHaveProperty('card_type')
    expect(warningsOf(instrument)).toEqual([
      ['unknown_field', 'card_type'],
      ['unknown_field', 'address'],
    ])
    const payment = (await harness.api('GET', `/payments?charge=${charge.body.id}`)).body
      .collection[0]
    const refund = await send(
      'POST',
      `/payments/${payment.id}/refund`,
      json({ amount: '1.5', payment_id: payment.id }),
      asJson,
    )
    expect(refund.status).toBe(201)
    expect(refund.body.amount).toBe(1.5)
    expect(warningsOf(refund)).toEqual([
      ['numeric_string', 'amount'],
      ['unknown_field', 'payment_id'],
    ])
  })

  it('reads null for an optional field as absent, and still refuses it for a required one', async () => {
    const charge = await send(
      'POST',
      '/charges',
      json(chargeFields({ redirect_url: null, metadata: null })),
      asJson,
    )
    expect(charge.status).toBe(201)
    expect(charge.body).toMatchObject({ redirect_url: '', metadata: {} })
    expect(warningsOf(charge)).toEqual([
      ['null_as_absent', 'redirect_url'],
      ['null_as_absent', 'metadata'],
    ])
    const required = await send('POST', '/charges', json(chargeFields({ currency: null })), asJson)
    expect(required.status).toBe(400)
    expect(Object.keys(required.body.parameters)).toEqual(['currency'])
  })

  it('still refuses prototype keys anywhere', async () => {
    const before = await chargeCount()
    const answer = await send(
      'POST',
      '/charges',
      '{"charge_type":"card_onetime","amount":1,"currency":"USD","events_url":"https://a.example","__proto__":{"x":1},"instrument_params":{"constructor":true}}',
      asJson,
    )
    expect(answer.status).toBe(400)
    expect(Object.keys(answer.body.parameters).sort()).toEqual([
      '__proto__',
      'instrument_params.constructor',
    ])
    expect(await chargeCount()).toBe(before)
  })
})

describe('bodies in other encodings', () => {
  it('reads JSON sent with a form content type as JSON', async () => {
    const answer = await send('POST', '/charges', json(chargeFields()), asForm)
    expect(answer.status).toBe(201)
    expect(answer.body.amount).toBe(20.5)
    expect(answer.headers.get(warningsHeader)).toBe(
      'json_with_other_content_type;instead="Content-Type: application/json"',
    )
    // No content type at all: the same.
    const bare = await send('POST', '/charges', json(chargeFields()), { 'content-type': '' })
    expect(bare.status).toBe(201)
  })

  it('reads a real form body as fields: nested keys, lists, numbers and booleans as text', async () => {
    const form = new URLSearchParams([
      ['charge_type', 'card_onetime'],
      ['amount', '20.50'],
      ['currency', 'USD'],
      ['events_url', harness.eventsUrl],
      ['metadata[order]', '7'],
      ['metadata[customer]', 'Ada'],
      ['channels[]', 'card_onetime_no_processor'],
      ['instrument_params[captured_on_creation]', '0'],
      ['instrument_params[enable3ds]', 'false'],
    ])
    const answer = await send('POST', '/charges', form.toString(), asForm)
    expect(answer.status).toBe(201)
    expect(answer.body).toMatchObject({
      amount: 20.5,
      metadata: { order: '7', customer: 'Ada' },
      channels: [{ label: 'card_onetime_no_processor' }],
      instrument_params: { captured_on_creation: false, enable3ds: false },
    })
    expect(warningsOf(answer)).toEqual([
      ['form_body', undefined],
      ['numeric_string', 'amount'],
      ['boolean_string', 'instrument_params.captured_on_creation'],
      ['boolean_string', 'instrument_params.enable3ds'],
    ])
    const indexed = await send(
      'POST',
      '/charges',
      `${chargeForm({ amount: '3' })}&channels[1]=card_onetime_simulated_acquirer&channels[0]=card_onetime_no_processor`,
      asForm,
    )
    expect(indexed.status).toBe(201)
    expect(indexed.body.channels.map((channel: { label: string }) => channel.label)).toEqual([
      'card_onetime_no_processor',
      'card_onetime_simulated_acquirer',
    ])
  })

  it.each([
    ['a prototype key', 'amount=1&metadata[__proto__]=x', 'metadata[__proto__]'],
    ['a malformed name', 'amount=1&metadata[order=7', 'metadata[order'],
    ['a field given twice', 'amount=1&amount=2', 'amount'],
    ['a value and fields under one name', 'metadata=1&metadata[a]=2', 'metadata[a]'],
    ['a list both appended and indexed', 'channels[]=a&channels[0]=b', 'channels[0]'],
    ['nesting beyond 20 levels', `a${'[b]'.repeat(20)}=1`, `a${'[b]'.repeat(20)}`],
  ])('refuses a form with %s: 400 naming the field', async (_, body, field) => {
    const before = await chargeCount()
    const answer = await send('POST', '/charges', body, asForm)
    expect(answer.status).toBe(400)
    expect(answer.body.failure_code).toBe('01.01.0000')
    expect(Object.keys(answer.body.parameters)).toEqual([field])
    expect(await chargeCount()).toBe(before)
  })

  it('answers 415 for a body that is neither JSON nor a declared form', async () => {
    const answer = await send('POST', '/charges', 'amount=1', { 'content-type': 'text/plain' })
    expect(answer.status).toBe(415)
    expect(answer.body.failure_code).toBe('01.01.0000')
  })

  it.each([
    ['with', { 'idempotency-key': 'deep-1' }],
    ['without', {}],
  ])('refuses a deeply nested body %s an Idempotency-Key: 400, not a crash', async (_, key) => {
    const deep = `{"metadata":${'['.repeat(3200)}${']'.repeat(3200)}}`
    expect(deep.length).toBeLessThan(7000)
    const answer = await send('POST', '/charges', deep, { ...asJson, ...key })
    expect(answer.status).toBe(400)
    expect(answer.body.parameters['(root)']).toEqual([
      'Expected a body nested at most 20 levels deep',
    ])
  })
})

describe('idempotent retries of lenient requests', () => {
  it('match themselves as read, and replay their warnings', async () => {
    const before = await chargeCount()
    const form = `${chargeForm({ amount: '12.5' })}&metadata[order]=idem`
    const key = { 'idempotency-key': 'form-retry-1' }
    const first = await send('POST', '/charges/', form, { ...asForm, ...key })
    // The same request spelled without the slash and with its fields in another order.
    const reordered = form.split('&').reverse().join('&')
    const retry = await send('POST', '/charges', reordered, { ...asForm, ...key })
    expect(first.status).toBe(201)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.body).toEqual(first.body)
    expect(warningsOf(retry)).toEqual([
      ['form_body', undefined],
      ['numeric_string', 'amount'],
    ])
    expect(warningsOf(first)).toEqual([
      ['trailing_slash', undefined],
      ['form_body', undefined],
      ['numeric_string', 'amount'],
    ])
    expect(await chargeCount()).toBe(before + 1)
  })
})

describe('where warnings are listed', () => {
  it('lists recent requests with their warnings, never bodies or credentials', async () => {
    const answer = await send(
      'POST',
      '/charges/',
      json(chargeFields({ amount: '7', notes: 'secret-body-text' })),
      asJson,
    )
    const requestId = answer.headers.get('request-id')
    const listed = await harness.api('GET', '/requests?per_page=5')
    expect(listed.status).toBe(200)
    const entry = listed.body.collection.find((request: { id: string }) => request.id === requestId)
    expect(entry).toEqual({
      id: requestId,
      method: 'POST',
      path: '/v2/charges/',
      status: 201,
      created_at: expect.any(String),
      duration_ms: expect.any(Number),
      warnings: [
        {
          code: 'trailing_slash',
          message: 'The path ends in "/": served as POST /v2/charges',
          instead: 'POST /v2/charges',
        },
        {
          code: 'numeric_string',
          field: 'amount',
          message: 'amount is a string holding a number: read as that number, exactly',
          instead: 'amount as a JSON number',
        },
        {
          code: 'unknown_field',
          field: 'notes',
          message: expect.stringMatching(/^Unknown field notes ignored: expected only charge_type/),
          instead: 'no notes field',
        },
      ],
      warnings_omitted: 0,
    })
    const text = JSON.stringify(listed.body)
    expect(text).not.toContain('secret-body-text')
    expect(text).not.toContain(account.key)

    const line = logLines.find((entry) => entry.fields.request_id === requestId)
    expect(line?.message).toBe('POST /v2/charges 201')
    expect(line?.fields.warnings).toBe(
      'trailing_slash (instead: POST /v2/charges); numeric_string amount (instead: amount as a JSON number); unknown_field notes (instead: no notes field)',
    )
  })

  it('keeps a bounded number of warnings per request, counting the rest', async () => {
    const extra = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`x${index}`, 1]))
    const answer = await send('POST', '/charges', json(chargeFields(extra)), asJson)
    expect(answer.status).toBe(201)
    const members = warningsOf(answer)
    expect(members).toHaveLength(21)
    expect(members.at(-1)).toEqual(['more', undefined])
    expect(answer.headers.get(warningsHeader)).toMatch(/more;count=10$/)
  })
})
