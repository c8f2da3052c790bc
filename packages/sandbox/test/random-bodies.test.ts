import {
  createChargeRequestSchema,
  createDisputeRequestSchema,
  createInstrumentRequestSchema,
  createPaymentRequestSchema,
  createRefundRequestSchema,
  createReversalRequestSchema,
  settleDisputeRequestSchema,
} from '@chargekit/schemas'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'

let harness: TestSandbox
const ids = { charge: '', instrument: '', payment: '', dispute: '', event: '' }

beforeAll(async () => {
  // No deliveries: a delivery finishing in the background would change the events compared.
  harness = await startTestSandbox({ deliverEvents: false })
  const api = harness.api
  const charge = await api('POST', '/charges', {
    charge_type: 'card_onetime',
    amount: 80,
    currency: 'USD',
    events_url: harness.eventsUrl,
    instrument_params: { captured_on_creation: false },
  })
  const instrument = await api('POST', '/instruments', testCard(charge.body.id))
  const second = await api('POST', '/charges', {
    charge_type: 'card_onetime',
    amount: 80,
    currency: 'USD',
    events_url: harness.eventsUrl,
  })
  await api('POST', '/instruments', testCard(second.body.id))
  const payment = (await api('GET', `/payments?charge=${second.body.id}`)).body.collection[0]
  const dispute = await api('POST', `/test/payments/${payment.id}/dispute`, { amount: 1 })
  const event = (await api('GET', '/events?per_page=1')).body.collection[0]
  Object.assign(ids, {
    charge: charge.body.id,
    instrument: instrument.body.id,
    payment: payment.id,
    dispute: dispute.body.id,
    event: event.id,
  })
})
afterAll(() => harness.close())

/** Every write endpoint with the fields its body may have. */
const endpoints: {
  label: string
  method: string
  path: () => string
  fields: readonly string[]
}[] = [
  {
    label: 'POST /charges',
    method: 'POST',
    path: () => '/charges',
    fields: Object.keys(createChargeRequestSchema.shape),
  },
  {
    label: 'POST /instruments',
    method: 'POST',
    path: () => '/instruments',
    fields: Object.keys(createInstrumentRequestSchema.shape),
  },
  {
    label: 'POST /payments',
    method: 'POST',
    path: () => '/payments',
    fields: Object.keys(createPaymentRequestSchema.shape),
  },
  {
    label: 'POST /payments/:id/refund',
    method: 'POST',
    path: () => `/payments/${ids.payment}/refund`,
    fields: Object.keys(createRefundRequestSchema.shape),
  },
  {
    label: 'POST /instruments/:id/reversal',
    method: 'POST',
    path: () => `/instruments/${ids.instrument}/reversal`,
    fields: Object.keys(createReversalRequestSchema.shape),
  },
  {
    label: 'DELETE /instruments/:id',
    method: 'DELETE',
    path: () => `/instruments/${ids.instrument}`,
    fields: [],
  },
  {
    label: 'POST /events/:id/redeliver',
    method: 'POST',
    path: () => `/events/${ids.event}/redeliver`,
    fields: [],
  },
  {
    label: 'POST /events/:id/dismiss',
    method: 'POST',
    path: () => `/events/${ids.event}/dismiss`,
    fields: [],
  },
  { label: 'POST /test/settlements', method: 'POST', path: () => '/test/settlements', fields: [] },
  {
    label: 'POST /test/payments/:id/dispute',
    method: 'POST',
    path: () => `/test/payments/${ids.payment}/dispute`,
    fields: Object.keys(createDisputeRequestSchema.shape),
  },
  {
    label: 'POST /test/disputes/:id/settle',
    method: 'POST',
    path: () => `/test/disputes/${ids.dispute}/settle`,
    fields: Object.keys(settleDisputeRequestSchema.shape),
  },
]

/** Any JSON that is not an object: no endpoint takes one. */
const nonObjectBodies = fc
  .jsonValue()
  .filter((value) => typeof value !== 'object' || value === null || Array.isArray(value))

/** Field names no endpoint has: ignored with a warning, never a reason to accept a bad body. */
const foreignField = fc.stringMatching(/^zz_[a-z]{1,6}$/)

/**
 * The endpoint's own fields with values no field accepts (a boolean, a list of numbers), among
 * fields it does not know. Null is not among them: for an optional field it means "absent".
 */
function wrongTypeBodies(fields: readonly string[]) {
  const wrong = fc.oneof(fc.boolean(), fc.array(fc.integer(), { minLength: 1 }))
  return fc
    .tuple(
      fc.subarray([...fields], { minLength: 1 }),
      fc.dictionary(foreignField, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    )
    .chain(([keys, foreign]) =>
      fc
        .tuple(...keys.map((key) => wrong.map((value) => [key, value] as const)))
        .map((entries) => ({ ...foreign, ...Object.fromEntries(entries) })),
    )
}

/** Everything a write could change: totals and the objects the endpoints target. */
async function state() {
  const api = harness.api
  const totals = await Promise.all(
    ['/charges', '/payments', '/events'].map(
      async (path) => (await api('GET', `${path}?per_page=1`)).body.pagination.total,
    ),
  )
  const objects = await Promise.all([
    api('GET', `/charges/${ids.charge}`),
    api('GET', `/instruments/${ids.instrument}`),
    api('GET', `/payments/${ids.payment}`),
    api('GET', `/disputes/${ids.dispute}`),
    api('GET', `/events/${ids.event}`),
  ])
  return JSON.stringify([totals, objects.map((answer) => answer.body)])
}

describe('random bodies to every write endpoint', () => {
  it.each(
    endpoints.map(
      (endpoint) =>
        [
          `${endpoint.method} ${endpoint.path().replace(/\/[a-z]{2}_?(?=\/|$)/g, '/:id')}`,
          endpoint,
        ] as const,
    ),
  )('%s answers 400 01.01.0000 JSON and changes nothing', async (_, endpoint) => {
    const before = await state()
    await fc.assert(
      fc.asyncProperty(
        endpoint.fields.length === 0
          ? nonObjectBodies
          : fc.oneof(nonObjectBodies, wrongTypeBodies(endpoint.fields)),
        async (body) => {
          const answer = await harness.api(endpoint.method, endpoint.path(), JSON.stringify(body), {
            'content-type': 'application/json',
          })
          expect(answer.status).toBe(400)
          expect(answer.headers.get('content-type')).toContain('application/json')
          expect(answer.body.failure_code).toBe('01.01.0000')
          expect(Object.keys(answer.body.parameters).length).toBeGreaterThan(0)
          // Unknown fields are not what made it a 400: they are only warned about.
          const fields = typeof body === 'object' && !Array.isArray(body) ? (body ?? {}) : {}
          for (const key of Object.keys(fields)) {
            if (endpoint.fields.includes(key)) continue
            expect(answer.body.parameters).not.toHaveProperty([key])
            expect(answer.headers.get('chargekit-integration-warnings')).toContain(
              `unknown_field;field="${key}"`,
            )
          }
        },
      ),
      { numRuns: 30 },
    )
    expect(await state()).toBe(before)
  })
})

it('answers 400 naming the field for an object whose toString is not a function, where text is expected', async () => {
  // JSON can give an object its own toString or valueOf: no field check may call them.
  for (const field of ['charge_type', 'currency', 'events_url', 'description']) {
    const hostile = { [field]: { toString: null, valueOf: null } }
    const answer = await harness.api('POST', '/charges', JSON.stringify(hostile), {
      'content-type': 'application/json',
    })
    expect(answer.status, field).toBe(400)
    expect(answer.body.parameters, field).toHaveProperty([field])
  }
})

/** Any value at all: JSON of any shape, extreme doubles, long text, nested objects. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.double(),
  fc.constantFrom(1e308, -1e308, 5e-324, 2 ** 53 + 2, 1e21, 123456789012345.67, 9999999999999.99),
  fc
    .tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.integer({ min: 1_000, max: 20_000 }))
    .map(([unit, length]) => unit.repeat(length)),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 }),
)

/**
 * Valid values for a field (mostly), so that some bodies get past validation and reach the
 * lifecycle with odd amounts, currencies and ids (ids are read when the property runs).
 */
function plausible(field: string): fc.Arbitrary<unknown> {
  const amount = fc.oneof(
    fc.integer({ min: 1, max: 10_000 }),
    fc.constantFrom(0.01, 10.125, 80, 6020000.2, 3030001.3, 9999999999999.99),
    fc.double({ min: -1e6, max: 1e16, noNaN: true }),
  )
  const byField: Record<string, fc.Arbitrary<unknown>> = {
    charge_type: fc.constantFrom('card_onetime', 'card_recurring'),
    amount,
    currency: fc.constantFrom('USD', 'JPY', 'BHD'),
    events_url: fc.constantFrom('http://127.0.0.1:9/hook', 'https://shop.example/events'),
    channels: fc.constantFrom([], ['card_onetime_no_processor'], ['card_recurring_no_processor']),
    metadata: fc.dictionary(
      fc.stringMatching(/^[a-z_]{1,8}$/),
      fc.oneof(fc.string(), fc.integer()),
    ),
    redirect_url: fc.constantFrom('', 'https://shop.example/back'),
    instrument_params: fc.record(
      { captured_on_creation: fc.boolean(), enable3ds: fc.boolean(), recurring: fc.boolean() },
      { requiredKeys: [] },
    ),
    charge: fc
      .constantFrom('charge', 'ch_missing')
      .map((id) => (id === 'charge' ? ids.charge : id)),
    instrument: fc
      .constantFrom('instrument', 'in_missing')
      .map((id) => (id === 'instrument' ? ids.instrument : id)),
    name: fc.string({ minLength: 1, maxLength: 20 }),
    number: fc.constantFrom('4242424242424242', '4000000000000002', '5555555555554444'),
    expiration_month: fc.integer({ min: 1, max: 12 }),
    expiration_year: fc.integer({ min: 2000, max: 2099 }),
    cvc: fc.constantFrom('123', '1234'),
    description: fc.string({ maxLength: 20 }),
    reason: fc.string({ maxLength: 20 }),
    outcome: fc.constantFrom('won', 'lost'),
  }
  return byField[field] ?? anyValue
}

/**
 * Bodies made only of the endpoint's own fields: some of them with any value, or all of them,
 * mostly plausible, so that a share of the bodies is valid and goes all the way through.
 */
function ownFieldBodies(fields: readonly string[]) {
  const someFields = fc.record(
    Object.fromEntries(fields.map((field) => [field, fc.oneof(plausible(field), anyValue)])),
    { requiredKeys: [] },
  )
  const everyField = fc.record(
    Object.fromEntries(
      fields.map((field) => [
        field,
        fc.oneof({ arbitrary: plausible(field), weight: 8 }, { arbitrary: anyValue, weight: 1 }),
      ]),
    ),
  )
  return fc.oneof(someFields, everyField)
}

describe("random values in every write endpoint's own fields", () => {
  it.each(
    endpoints
      .filter((endpoint) => endpoint.fields.length > 0)
      .map((endpoint) => [endpoint.label, endpoint] as const),
  )('%s never answers 5xx; a 400 is 01.01.0000 and changes nothing', async (_, endpoint) => {
    let baseline = await state()
    await fc.assert(
      fc.asyncProperty(ownFieldBodies(endpoint.fields), async (body) => {
        const answer = await harness.api(endpoint.method, endpoint.path(), body)
        expect(answer.status).toBeGreaterThanOrEqual(200)
        expect(answer.status).toBeLessThan(500)
        expect(answer.headers.get('content-type')).toContain('application/json')
        if (answer.status === 400) {
          expect(answer.body.failure_code).toBe('01.01.0000')
          expect(Object.keys(answer.body.parameters).length).toBeGreaterThan(0)
          expect(await state()).toBe(baseline)
        } else {
          // Accepted, declined (402), unknown id (404) or not allowed now (409): a real answer.
          expect(answer.body).toEqual(expect.any(Object))
          baseline = await state()
        }
      }),
      { numRuns: 25 },
    )
  })
})
