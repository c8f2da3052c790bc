import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/v4'
import { currencies, money } from '../test/arbitraries'
import * as fixtures from '../test/fixtures'
import {
  cardDetailsSchema,
  chargeOnlyInstrumentRequestSchema,
  createChargeRequestSchema,
  createChargeRequestSchemaFor,
  createDisputeRequestSchema,
  createInstrumentRequestSchema,
  createPaymentRequestSchema,
  createRefundOfPaymentRequestSchema,
  createRefundRequestSchema,
  createReversalRequestSchema,
  currencyMinorDigits,
  eventListQuerySchema,
  formatZodIssues,
  instrumentParamsSchema,
  listQuerySchema,
  maxAmount,
  mbwayInstrumentRequestSchema,
  metadataLimits,
  settleDisputeRequestSchema,
} from './index'

function parameters(
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) {
  const result = schema.safeParse(value)
  return result.success ? {} : formatZodIssues(result.error as never)
}

describe('createChargeRequestSchema', () => {
  it('parses the documented request (coded test amount, no_processor channel)', () => {
    expect(createChargeRequestSchema.parse(fixtures.createChargeRequest)).toEqual(
      fixtures.createChargeRequest,
    )
  })

  it('accepts every optional field and strips unknown ones', () => {
    const full = {
      ...fixtures.createChargeRequest,
      metadata: { order_id: 'ord_1', attempt: 2, gift: false, note: null },
      redirect_url: 'https://shop.example.com/thanks',
      instrument_params: { captured_on_creation: false, enable3ds: true, recurring: true },
      description: 'Order 1: two mugs',
      confirmed: false,
    }
    expect(createChargeRequestSchema.parse({ ...full, surprise: 1 })).toEqual(full)
    expect(createChargeRequestSchema.safeParse({ ...full, redirect_url: '' }).success).toBe(true)
  })

  it('checks the amount against the currency’s minor digits (JPY 0, USD 2, BHD 3)', () => {
    const base = fixtures.createChargeRequest
    expect(
      parameters(createChargeRequestSchema, { ...base, currency: 'JPY', amount: 1500 }),
    ).toEqual({})
    expect(
      parameters(createChargeRequestSchema, { ...base, currency: 'JPY', amount: 1500.5 }),
    ).toEqual({
      amount: ['Expected a whole number: JPY has no minor unit'],
    })
    expect(
      parameters(createChargeRequestSchema, { ...base, currency: 'USD', amount: 10.25 }),
    ).toEqual({})
    expect(
      parameters(createChargeRequestSchema, { ...base, currency: 'USD', amount: 10.255 }),
    ).toEqual({
      amount: ['Expected at most 2 decimals for USD'],
    })
    expect(
      parameters(createChargeRequestSchema, { ...base, currency: 'BHD', amount: 1.234 }),
    ).toEqual({})
    expect(
      parameters(createChargeRequestSchema, { ...base, currency: 'BHD', amount: 1.2345 }),
    ).toEqual({
      amount: ['Expected at most 3 decimals for BHD'],
    })
  })

  it('accepts every amount within the currency’s digits and rejects one digit more', () => {
    fc.assert(
      fc.property(money, ({ amount, currency }) => {
        const request = { ...fixtures.createChargeRequest, amount, currency }
        expect(createChargeRequestSchema.safeParse(request).success).toBe(true)
        const tooPrecise = Number(
          `${amount.toFixed(currencyMinorDigits(currency))}${currencyMinorDigits(currency) === 0 ? '.' : ''}7`,
        )
        expect(
          parameters(createChargeRequestSchema, { ...request, amount: tooPrecise }),
        ).toHaveProperty('amount')
      }),
      { numRuns: 200 },
    )
  })

  it('reports the precision problem together with the other field problems', () => {
    expect(
      parameters(createChargeRequestSchema, {
        ...fixtures.createChargeRequest,
        amount: 10.123,
        currency: 'USD',
        channels: ['card_onetime_no_processor', 7],
        metadata: { order_id: { id: 1 } },
      }),
    ).toEqual({
      'channels.1': [
        'Expected a channel label: the charge type, an underscore and the processor channel, such as card_onetime_no_processor',
      ],
      'metadata.order_id': [
        'Expected a string, number, boolean or null (metadata values are flat)',
      ],
      amount: ['Expected at most 2 decimals for USD'],
    })
  })

  it('caps the amount so its minor units stay exact, naming the field and the maximum', () => {
    const base = { ...fixtures.createChargeRequest, currency: 'USD' }
    const tooLarge = 'Expected at most 9999999999999.99 USD: a larger amount cannot be held exactly'
    expect(parameters(createChargeRequestSchema, { ...base, amount: 1e20 })).toEqual({
      amount: [tooLarge],
    })
    expect(parameters(createChargeRequestSchema, { ...base, amount: 123456789012345.67 })).toEqual({
      amount: [tooLarge],
    })
    expect(parameters(createChargeRequestSchema, { ...base, amount: 10000000000000 })).toEqual({
      amount: [tooLarge],
    })
    expect(parameters(createChargeRequestSchema, { ...base, amount: 9999999999999.99 })).toEqual({})
    expect(
      parameters(createChargeRequestSchema, { ...base, currency: 'JPY', amount: 999999999999999 }),
    ).toEqual({})
    expect(
      parameters(createChargeRequestSchema, { ...base, currency: 'JPY', amount: 1e15 }),
    ).toEqual({
      amount: ['Expected at most 999999999999999 JPY: a larger amount cannot be held exactly'],
    })
    // Both problems of one amount are reported.
    expect(
      parameters(createPaymentRequestSchema, {
        instrument: 'in_1',
        currency: 'USD',
        amount: 10000000000000.125,
      }),
    ).toEqual({ amount: ['Expected at most 2 decimals for USD', tooLarge] })
  })

  it('accepts every amount up to the maximum and rejects every one above it, in each currency', () => {
    const maxMinor = 999_999_999_999_999n
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.oneof(
          fc.bigInt({ min: 1n, max: maxMinor }),
          fc.bigInt({ min: maxMinor - 1000n, max: maxMinor + 1000n }),
          fc.bigInt({ min: maxMinor + 1n, max: 10n ** 30n }),
        ),
        (currency, minor) => {
          const digits = currencyMinorDigits(currency)
          // The amount written with exactly the currency's digits, read as a JSON number would be.
          const amount = Number(`${minor}e-${digits}`)
          const request = { ...fixtures.createChargeRequest, currency, amount }
          const problems = parameters(createChargeRequestSchema, request).amount ?? []
          const cap = `Expected at most ${maxAmount(currency)} ${currency}: a larger amount cannot be held exactly`
          expect(problems.includes(cap)).toBe(minor > maxMinor)
          expect(
            (
              parameters(createPaymentRequestSchema, { ...request, instrument: 'in_1' }).amount ??
              []
            ).includes(cap),
          ).toBe(minor > maxMinor)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('reads metadata as an object or, as the service does, a string kept as it is', () => {
    const serviceReading = createChargeRequestSchemaFor({ allowLoopbackHttp: false })
    const base = fixtures.createChargeRequest
    expect(serviceReading.parse({ ...base, metadata: '42|1001' }).metadata).toBe('42|1001')
    expect(serviceReading.parse({ ...base, metadata: { order: 7 } }).metadata).toEqual({ order: 7 })
    // What a client sends stays an object, which the event search can match by key.
    expect(parameters(createChargeRequestSchema, { ...base, metadata: '42|1001' })).toEqual({
      metadata: ['Expected record, received string'],
    })
    expect(
      parameters(serviceReading, { ...base, metadata: 'x'.repeat(metadataLimits.textLength + 1) }),
    ).toEqual({ metadata: [`Expected at most ${metadataLimits.textLength} characters`] })
    expect(metadataLimits.textLength).toBe(metadataLimits.keys * metadataLimits.valueLength)
  })

  it('names the field of object metadata the service reading refuses, as a client schema does', () => {
    const serviceReading = createChargeRequestSchemaFor({ allowLoopbackHttp: false })
    const base = fixtures.createChargeRequest
    for (const metadata of [
      { order_id: { id: 1 } },
      { ['k'.repeat(41)]: 1 },
      { note: 'x'.repeat(501) },
      Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`key_${index}`, index])),
    ]) {
      expect(parameters(serviceReading, { ...base, metadata })).toEqual(
        parameters(createChargeRequestSchema, { ...base, metadata }),
      )
    }
    expect(parameters(serviceReading, { ...base, metadata: 7 })).toEqual({
      metadata: [
        'Expected an object of flat values (string, number, boolean or null), or a string',
      ],
    })
  })

  it('refuses unknown instrument_params keys, naming the field and the known options', () => {
    const base = fixtures.createChargeRequest
    expect(
      parameters(createChargeRequestSchema, {
        ...base,
        instrument_params: { captured_on_creaton: false, enable3ds: true },
      }),
    ).toEqual({
      instrument_params: [
        'Unknown option "captured_on_creaton": expected only captured_on_creation, enable3ds, recurring',
      ],
    })
    expect(
      parameters(createChargeRequestSchema, {
        ...base,
        instrument_params: { recurring: 'yes', threeds: true, capture: false },
      }),
    ).toEqual({
      'instrument_params.recurring': [
        'Expected true or false: whether several payments may be created from the instrument',
      ],
      instrument_params: [
        'Unknown options "threeds", "capture": expected only captured_on_creation, enable3ds, recurring',
      ],
    })
  })

  it('takes the instrument_params options from the charge resource’s schema', () => {
    const requestParams = createChargeRequestSchema.shape.instrument_params.unwrap()
    expect(Object.keys(requestParams.shape)).toEqual(Object.keys(instrumentParamsSchema.shape))
    for (const key of Object.keys(instrumentParamsSchema.shape)) {
      expect(
        createChargeRequestSchema.safeParse({
          ...fixtures.createChargeRequest,
          instrument_params: { [key]: true },
        }).success,
        key,
      ).toBe(true)
    }
  })

  it('names every missing required field, saying what it is', () => {
    expect(parameters(createChargeRequestSchema, {})).toEqual({
      charge_type: [
        "Required: the payment method the customer pays with, such as card_onetime or mbway (charges.types lists the account's)",
      ],
      amount: [
        "Required: the amount to charge: a number in the currency's major units, greater than 0, such as 20.5 for 20.50 EUR",
      ],
      currency: ['Required: the currency to charge in, an ISO 4217 code such as EUR or USD'],
      events_url: ["Required: the address that receives the charge's events, an https:// URL"],
    })
  })

  it('requires https for events_url unless loopback http is allowed', () => {
    const local = { ...fixtures.createChargeRequest, events_url: 'http://127.0.0.1:3000/hooks' }
    expect(parameters(createChargeRequestSchema, local)).toEqual({
      events_url: ['Expected an https:// URL'],
    })
    const sandboxSchema = createChargeRequestSchemaFor({ allowLoopbackHttp: true })
    expect(sandboxSchema.safeParse(local).success).toBe(true)
    expect(
      parameters(sandboxSchema, { ...local, events_url: 'http://shop.example.com/hooks' }),
    ).toEqual({
      events_url: ['Expected an https:// URL (or http:// to 127.0.0.1, localhost or [::1])'],
    })
  })

  it('rejects a bad currency and a non-positive amount', () => {
    expect(
      parameters(createChargeRequestSchema, {
        ...fixtures.createChargeRequest,
        currency: 'usd',
        amount: 0,
      }),
    ).toEqual({
      amount: ['Expected a positive amount (greater than 0)'],
      currency: ['Expected an ISO 4217 currency code known to Intl, such as "USD" (upper case)'],
    })
  })
})

describe('createInstrumentRequestSchema', () => {
  it('parses the documented request', () => {
    expect(createInstrumentRequestSchema.parse(fixtures.createInstrumentRequest)).toEqual(
      fixtures.createInstrumentRequest,
    )
  })

  it('checks number, expiry and cvc, naming each field', () => {
    expect(
      parameters(createInstrumentRequestSchema, {
        ...fixtures.createInstrumentRequest,
        number: '4111 1111 1111 1111 0000',
        expiration_month: 13,
        expiration_year: 30,
        cvc: '12',
      }),
    ).toEqual({
      number: ['Expected the card number: 12 to 19 digits, grouped by spaces or dashes or not'],
      expiration_month: ["Expected the card's expiry month, a number from 1 to 12"],
      expiration_year: ["Expected the card's expiry year, in four digits such as 2030"],
      cvc: ["Expected the card's security code: the 3 or 4 digits printed on it"],
    })
    expect(
      parameters(createInstrumentRequestSchema, {
        ...fixtures.createInstrumentRequest,
        expiration_month: '12',
      }),
    ).toEqual({
      expiration_month: ["Expected the card's expiry month, a number from 1 to 12"],
    })
  })

  it('accepts any 12–19 digit number (Luhn is the processor’s business)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{12,19}$/),
        fc.stringMatching(/^\d{3,4}$/),
        (number, cvc) => {
          expect(
            createInstrumentRequestSchema.safeParse({
              ...fixtures.createInstrumentRequest,
              number,
              cvc,
            }).success,
          ).toBe(true)
        },
      ),
    )
  })
})

describe('the card number', () => {
  const numberOf = (typed: string) =>
    createInstrumentRequestSchema.parse({ ...fixtures.createInstrumentRequest, number: typed })
      .number

  it('is read with the spaces or dashes a person types removed', () => {
    for (const typed of ['4242 4242 4242 4242', '4242-4242-4242-4242', '4242424242424242']) {
      expect(numberOf(typed), typed).toBe('4242424242424242')
    }
    expect(numberOf('3782 822463 10005')).toBe('378282246310005')
  })

  it('refuses separators that are not between digits, or doubled, and other characters', () => {
    for (const typed of [
      ' 4242424242424242',
      '4242424242424242 ',
      '4242  4242 4242 4242',
      '4242.4242.4242.4242',
      '4242 4242 4242 424x',
      '',
    ]) {
      expect(
        parameters(createInstrumentRequestSchema, {
          ...fixtures.createInstrumentRequest,
          number: typed,
        }),
        typed,
      ).toEqual({
        number: ['Expected the card number: 12 to 19 digits, grouped by spaces or dashes or not'],
      })
    }
  })

  it('passes the JSON Schema pattern exactly when the schema takes it', () => {
    const { properties } = z.toJSONSchema(cardDetailsSchema, { io: 'input' }) as unknown as {
      properties: { number: { pattern: string; examples: string[] } }
    }
    const pattern = new RegExp(properties.number.pattern)
    for (const example of properties.number.examples) expect(example).toMatch(pattern)
    fc.assert(
      fc.property(fc.stringMatching(/^[\d -]{0,40}$/), (typed) => {
        const accepted = createInstrumentRequestSchema.safeParse({
          ...fixtures.createInstrumentRequest,
          number: typed,
        }).success
        expect(pattern.test(typed)).toBe(accepted)
      }),
    )
  })

  it('titles every field a person fills in', () => {
    const { properties } = z.toJSONSchema(cardDetailsSchema, { io: 'input' }) as unknown as {
      properties: Record<string, { title?: string }>
    }
    expect(
      Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, field.title])),
    ).toEqual({
      name: 'Cardholder name',
      number: 'Card number',
      expiration_month: 'Expiry month',
      expiration_year: 'Expiry year',
      cvc: 'Security code (CVC)',
    })
  })
})

describe('mbwayInstrumentRequestSchema', () => {
  const phoneNumber = (phone: unknown) =>
    mbwayInstrumentRequestSchema.parse({ charge: 'ch_1', phone_number: phone }).phone_number

  it('reads a Portuguese mobile number as people write it, keeping its 9 digits', () => {
    for (const written of [
      '912345678',
      '912 345 678',
      '912-345-678',
      '+351 912 345 678',
      '+351912345678',
      '00351 912345678',
      '351-912-345-678',
    ]) {
      expect(phoneNumber(written), written).toBe('912345678')
    }
  })

  it('refuses anything else, saying what it expects', () => {
    for (const phone of [
      '812345678',
      '91234567',
      '9123456789',
      '+44 7700 900123',
      '+3519123456',
      '',
    ]) {
      expect(
        parameters(mbwayInstrumentRequestSchema, { charge: 'ch_1', phone_number: phone }),
      ).toEqual({
        phone_number: [
          'Expected a Portuguese mobile number registered in MB WAY, where the payment request goes: 9 digits starting with 9, such as 912345678 or +351 912 345 678',
        ],
      })
    }
  })

  it('states the same rule in its JSON Schema, with examples that pass it', () => {
    const { properties } = z.toJSONSchema(mbwayInstrumentRequestSchema, {
      io: 'input',
    }) as unknown as {
      properties: { phone_number: { pattern: string; examples: string[] } }
    }
    const pattern = new RegExp(properties.phone_number.pattern)
    expect(properties.phone_number.examples.length).toBeGreaterThan(0)
    for (const example of properties.phone_number.examples) expect(example).toMatch(pattern)
    expect('812345678').not.toMatch(pattern)
  })

  it('leaves Multibanco, Payshop and PayPal requests with the charge alone', () => {
    expect(chargeOnlyInstrumentRequestSchema.parse({ charge: 'ch_1', phone_number: '1' })).toEqual({
      charge: 'ch_1',
    })
    expect(parameters(chargeOnlyInstrumentRequestSchema, {})).toHaveProperty('charge')
  })
})

describe('money movement requests', () => {
  it('payment: instrument, amount, currency, precision checked', () => {
    const request = {
      instrument: 'in_1',
      amount: 12.5,
      currency: 'USD',
      description: 'Order 1',
      metadata: { a: 'b' },
    }
    expect(createPaymentRequestSchema.parse(request)).toEqual(request)
    expect(parameters(createPaymentRequestSchema, { ...request, currency: 'JPY' })).toEqual({
      amount: ['Expected a whole number: JPY has no minor unit'],
    })
    expect(parameters(createPaymentRequestSchema, { amount: 1, currency: 'USD' })).toEqual({
      instrument: ['Required: the id of the authorized instrument to capture from, such as in_…'],
    })
  })

  it('refund, reversal, dispute and dispute settlement bodies', () => {
    expect(createRefundRequestSchema.parse({ amount: 5, description: 'one item' })).toEqual({
      amount: 5,
      description: 'one item',
    })
    expect(createRefundOfPaymentRequestSchema.parse({ payment: 'pa_1', amount: 5 })).toEqual({
      payment: 'pa_1',
      amount: 5,
    })
    expect(parameters(createRefundOfPaymentRequestSchema, { amount: 5 })).toEqual({
      payment: ['Required: the id of the successful payment to refund, such as pa_…'],
    })
    expect(parameters(createRefundRequestSchema, { amount: -5 })).toEqual({
      amount: ['Expected a positive amount (greater than 0)'],
    })
    expect(createReversalRequestSchema.parse({})).toEqual({})
    expect(createReversalRequestSchema.parse({ amount: 10 })).toEqual({ amount: 10 })
    // These bodies name no currency: their cap is the largest any currency allows.
    const tooLarge = 'Expected at most 999999999999999: a larger amount cannot be held exactly'
    for (const schema of [
      createRefundRequestSchema,
      createReversalRequestSchema,
      createDisputeRequestSchema,
    ]) {
      expect(parameters(schema, { amount: 1e15 })).toEqual({ amount: [tooLarge] })
      expect(parameters(schema, { amount: 1e20 })).toEqual({ amount: [tooLarge] })
      expect(parameters(schema, { amount: 999999999999999 })).toEqual({})
    }
    expect(createDisputeRequestSchema.parse({ reason: 'fraudulent' })).toEqual({
      reason: 'fraudulent',
    })
    expect(settleDisputeRequestSchema.parse({ outcome: 'won' })).toEqual({ outcome: 'won' })
    expect(Object.keys(parameters(settleDisputeRequestSchema, { outcome: 'draw' }))).toEqual([
      'outcome',
    ])
  })
})

describe('list queries', () => {
  it('coerces page and per_page from query strings with defaults 1 / 30 and a 100 maximum', () => {
    expect(listQuerySchema.parse({})).toEqual({ page: 1, per_page: 30 })
    expect(listQuerySchema.parse({ page: '3', per_page: '100' })).toEqual({
      page: 3,
      per_page: 100,
    })
    expect(parameters(listQuerySchema, { page: '0', per_page: '101' })).toEqual({
      page: ['Expected the page to return, counted from 1 (default 1)'],
      per_page: ['Expected the number of objects a page holds, from 1 to 100 (default 30)'],
    })
    expect(Object.keys(parameters(listQuerySchema, { page: 'two' }))).toEqual(['page'])
    expect(Object.keys(parameters(listQuerySchema, { per_page: '2.5' }))).toEqual(['per_page'])
  })

  it('refuses empty, blank and non-decimal page numbers instead of reading them as 0 or hex', () => {
    expect(parameters(listQuerySchema, { page: '', per_page: ' ' })).toEqual({
      page: ['Expected a whole number written in digits, received an empty value'],
      per_page: ['Expected a whole number written in digits, received " "'],
    })
    for (const text of ['0x10', '1e1', ' 3', '3 ', '+', '']) {
      expect(Object.keys(parameters(listQuerySchema, { page: text })), text).toEqual(['page'])
    }
    expect(listQuerySchema.parse({ page: 2, per_page: '007' })).toEqual({ page: 2, per_page: 7 })
  })

  it('refuses an empty or blank result_status, reusing the 0–599 status rule', () => {
    for (const text of ['', ' ', '\t']) {
      expect(
        parameters(eventListQuerySchema, { result_status: text }),
        JSON.stringify(text),
      ).toEqual({
        result_status: [
          expect.stringMatching(/^Expected a whole number written in digits, received /),
        ],
      })
    }
    expect(eventListQuerySchema.parse({ result_status: '0' }).result_status).toBe(0)
    expect(eventListQuerySchema.parse({ result_status: 599 }).result_status).toBe(599)
    expect(parameters(eventListQuerySchema, { result_status: '-1' })).toHaveProperty(
      'result_status',
    )
    expect(parameters(eventListQuerySchema, { result_status: '0x1F4' })).toHaveProperty(
      'result_status',
    )
  })

  it('parses every event filter, from query strings', () => {
    expect(
      eventListQuerySchema.parse({
        type: ['payment.success', 'refund.success'],
        charge: 'ch_1',
        object_id: 're_1',
        metadata: { order_id: 'ord_1' },
        created_gte: '2025-03-01T00:00:00Z',
        created_lte: '2025-03-31T23:59:59-06:00',
        dismissed: 'false',
        result_status: '503',
        delivery_status: 'failing',
      }),
    ).toEqual({
      page: 1,
      per_page: 30,
      type: ['payment.success', 'refund.success'],
      charge: 'ch_1',
      object_id: 're_1',
      metadata: { order_id: 'ord_1' },
      created_gte: '2025-03-01T00:00:00Z',
      created_lte: '2025-03-31T23:59:59-06:00',
      dismissed: false,
      result_status: 503,
      delivery_status: 'failing',
    })
    expect(eventListQuerySchema.parse({ type: 'charge.created', dismissed: true })).toMatchObject({
      type: 'charge.created',
      dismissed: true,
    })
  })

  it('names each bad filter', () => {
    expect(
      parameters(eventListQuerySchema, {
        type: 'charge.deleted',
        dismissed: 'maybe',
        created_gte: '2025-03-01',
        delivery_status: 'lost',
        result_status: '600',
      }),
    ).toMatchObject({
      type: ['Expected a known event type such as "payment.success", or a list of them'],
      dismissed: ['Expected true or false'],
      created_gte: [expect.stringMatching(/ISO 8601/)],
      delivery_status: [expect.stringMatching(/pending, delivered, failing, exhausted or none$/)],
      result_status: [expect.stringMatching(/599/)],
    })
  })
})

it('currencies used by the generators are all known', () => {
  for (const currency of currencies) expect(() => currencyMinorDigits(currency)).not.toThrow()
})
