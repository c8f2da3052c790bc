import { encodeTestAmount } from '@chargekit/errors'
import { chargeSchema, chargeTypeListSchema } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { challengeForm, completeChallenge, postChallenge } from '../../../scripts/challenge-form'
import {
  type ApiCaller,
  eventually,
  startTestSandbox,
  type TestSandbox,
  testCard,
} from '../src/testing/index'
import { eventTypesOf } from './event-types'

let harness: TestSandbox
let api: ApiCaller
const restricted = { id: 'acct_recurring', key: 'sk_recurring' }

beforeAll(async () => {
  // The simulated acquirer's 2 s confirmations become 2 ms.
  harness = await startTestSandbox({
    timeScale: 0.001,
    accounts: [
      { id: 'acct_sandbox', key: 'sk_sandbox' },
      { ...restricted, channels: ['card_recurring_no_processor'] },
    ],
  })
  api = harness.api
})
afterAll(() => harness.close())

async function authorized(body: Record<string, unknown> = {}) {
  const charge = await harness.createCharge(body)
  expect(charge.status).toBe(201)
  const instrument = await api('POST', '/instruments', testCard(charge.body.id))
  expect(instrument.status).toBe(201)
  return { chargeId: charge.body.id as string, instrument: instrument.body }
}

const pay = (instrument: string, amount: number) =>
  api('POST', '/payments', { instrument, amount, currency: 'EUR' })

describe('charge description', () => {
  it('is stored and returned', async () => {
    const created = await harness.createCharge({ description: 'Order A-1001: 2 mugs' })
    expect(created.status).toBe(201)
    expect(chargeSchema.parse(created.body).description).toBe('Order A-1001: 2 mugs')
    const read = await api('GET', `/charges/${created.body.id}`)
    expect(read.body.description).toBe('Order A-1001: 2 mugs')
  })

  it('must be a string', async () => {
    const answer = await harness.createCharge({ description: 42 })
    expect(answer.status).toBe(400)
    expect(answer.body.parameters.description).toBeDefined()
  })
})

describe('unconfirmed charges and POST /v2/charges/{id}/confirm', () => {
  it('takes no instrument until confirmed; confirming twice emits charge.confirmed once', async () => {
    const created = await harness.createCharge({ confirmed: false })
    expect(created.status).toBe(201)
    expect(created.body.confirmed).toBe(false)
    expect(await eventTypesOf(api, created.body.id)).toEqual(['charge.created'])

    const early = await api('POST', '/instruments', testCard(created.body.id))
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({
      failure_code: '05.03.0000',
      failure_description: 'Authorization Error',
    })
    expect(early.body.message).toContain(`POST /v2/charges/${created.body.id}/confirm`)

    const confirmed = await api('POST', `/charges/${created.body.id}/confirm`)
    expect(confirmed.status).toBe(201)
    expect(confirmed.body).toMatchObject({ id: created.body.id, confirmed: true })
    const again = await api('POST', `/charges/${created.body.id}/confirm`, {})
    expect(again.status).toBe(201)
    expect(again.body).toEqual(confirmed.body)
    expect(await eventTypesOf(api, created.body.id)).toEqual(['charge.created', 'charge.confirmed'])

    const instrument = await api('POST', '/instruments', testCard(created.body.id))
    expect(instrument.status).toBe(201)
    expect(instrument.body.status).toBe('authorized')
  })

  it('fails a .10 charge at confirmation, which then answers its failure', async () => {
    const amount = encodeTestAmount('03.01.0000', 'charge')
    const created = await harness.createCharge({ amount, confirmed: false })
    expect(created.status).toBe(201)
    expect(created.body.failure_code).toBeNull()
    const confirm = await api('POST', `/charges/${created.body.id}/confirm`)
    expect(confirm.status).toBe(402)
    expect(confirm.body).toMatchObject({
      failure_code: '03.01.0000',
      metadata: { charge: created.body.id },
    })
    const again = await api('POST', `/charges/${created.body.id}/confirm`)
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({
      failure_code: '03.01.0000',
      failure_description: 'Disabled Account',
    })
    expect(await eventTypesOf(api, created.body.id)).toEqual(['charge.created', 'charge.error'])
  })

  it('answers 404 for an unknown charge, 400 for a body that is not an object, and warns of fields', async () => {
    expect((await api('POST', '/charges/ch_missing/confirm')).status).toBe(404)
    const created = await harness.createCharge({ confirmed: false })
    const notAnObject = await api('POST', `/charges/${created.body.id}/confirm`, '[true]')
    expect(notAnObject.status).toBe(400)
    expect((await api('GET', `/charges/${created.body.id}`)).body.confirmed).toBe(false)
    // Confirm takes no fields: the service ignores any sent, and the sandbox names them.
    const withField = await api('POST', `/charges/${created.body.id}/confirm`, { confirmed: 'yes' })
    expect(withField.status).toBe(201)
    expect(withField.body.confirmed).toBe(true)
    expect(withField.headers.get('chargekit-integration-warnings')).toContain(
      'unknown_field;field="confirmed"',
    )
  })
})

describe('POST /v2/refunds', () => {
  /** A captured payment of its own charge, and the charge's id. */
  async function capturedPayment() {
    const { chargeId, instrument } = await authorized({ amount: 30 })
    const list = await api('GET', `/payments?instrument=${instrument.id}`)
    return { chargeId, payment: list.body.collection[0] }
  }

  it('refunds exactly as POST /v2/payments/{id}/refund does', async () => {
    const viaPayment = await capturedPayment()
    const viaRefunds = await capturedPayment()
    const byPath = await api('POST', `/payments/${viaPayment.payment.id}/refund`, {
      amount: 12.5,
      description: 'damaged',
    })
    const byBody = await api('POST', '/refunds', {
      payment: viaRefunds.payment.id,
      amount: 12.5,
      description: 'damaged',
    })
    expect(byPath.status).toBe(201)
    expect(byBody.status).toBe(201)
    // Equal but for what names this transaction and this moment.
    const comparable = (refund: Record<string, unknown>) => {
      const { id, created_at, payment, charge, external_ids, ...rest } = refund
      return rest
    }
    expect(comparable(byBody.body)).toEqual(comparable(byPath.body))
    expect(byBody.body).toMatchObject({
      payment: viaRefunds.payment.id,
      amount: 12.5,
      description: 'damaged',
      status: 'success',
    })
    expect(await eventTypesOf(api, viaRefunds.chargeId)).toEqual(
      await eventTypesOf(api, viaPayment.chargeId),
    )
    // The same rules: the rest of the payment, and no more.
    const over = await api('POST', '/refunds', { payment: viaRefunds.payment.id, amount: 17.51 })
    const overByPath = await api('POST', `/payments/${viaPayment.payment.id}/refund`, {
      amount: 17.51,
    })
    expect(over.status).toBe(409)
    expect(over.body.failure_code).toBe(overByPath.body.failure_code)
    expect((await api('GET', `/payments/${viaRefunds.payment.id}`)).body.refunded_amount).toBe(12.5)
  })

  it('names a missing payment field, and answers 404 for an unknown payment', async () => {
    const missing = await api('POST', '/refunds', { amount: 1 })
    expect(missing.status).toBe(400)
    expect(missing.body.parameters.payment).toBeDefined()
    const unknown = await api('POST', '/refunds', { payment: 'pa_missing', amount: 1 })
    expect(unknown.status).toBe(404)
  })
})

describe('DELETE /v2/instruments/{id}', () => {
  it('reverses an authorized, uncaptured instrument, then invalidates it; again is a no-op', async () => {
    const { chargeId, instrument } = await authorized({
      instrument_params: { captured_on_creation: false },
    })
    const deleted = await api('DELETE', `/instruments/${instrument.id}`)
    expect(deleted.status).toBe(204)
    expect(deleted.body).toBe('')
    expect((await api('GET', `/instruments/${instrument.id}`)).body.status).toBe('invalid')
    const events = [
      'charge.created',
      'charge.confirmed',
      'instrument.created',
      'instrument.authorized',
      'reversal.success',
      'instrument.invalid',
    ]
    expect(await eventTypesOf(api, chargeId)).toEqual(events)
    expect((await api('DELETE', `/instruments/${instrument.id}`)).status).toBe(204)
    expect(await eventTypesOf(api, chargeId)).toEqual(events)
    expect((await pay(instrument.id, 1)).body.failure_code).toBe('05.04.0002')
  })

  it('invalidates a captured instrument without a reversal; its payments stay refundable', async () => {
    const { chargeId, instrument } = await authorized()
    const payment = (await api('GET', `/payments?instrument=${instrument.id}`)).body.collection[0]
    expect((await api('DELETE', `/instruments/${instrument.id}`)).status).toBe(204)
    expect((await eventTypesOf(api, chargeId)).slice(-2)).toEqual([
      'payment.success',
      'instrument.invalid',
    ])
    const refund = await api('POST', `/payments/${payment.id}/refund`, { amount: 10 })
    expect(refund.status).toBe(201)
  })

  it('revokes a recurring token', async () => {
    const { instrument } = await authorized({ charge_type: 'card_recurring', amount: 1 })
    expect((await pay(instrument.id, 5)).status).toBe(201)
    expect((await api('DELETE', `/instruments/${instrument.id}`)).status).toBe(204)
    const refused = await pay(instrument.id, 5)
    expect(refused.status).toBe(409)
    expect(refused.body.failure_code).toBe('05.04.0002')
  })

  it('answers a declined reversal (.50) with its 402 and leaves the instrument authorized', async () => {
    const { chargeId, instrument } = await authorized({
      amount: encodeTestAmount('04.01.0000', 'reversal'),
    })
    const deleted = await api('DELETE', `/instruments/${instrument.id}`)
    expect(deleted.status).toBe(402)
    expect(deleted.body).toMatchObject({ failure_code: '04.01.0000' })
    expect((await api('GET', `/instruments/${instrument.id}`)).body.status).toBe('authorized')
    expect((await eventTypesOf(api, chargeId)).at(-1)).toBe('reversal.error')
  })

  it('invalidates once an acquirer confirms the reversal later (reversal.pending)', async () => {
    const { chargeId, instrument } = await authorized({
      channels: ['card_onetime_simulated_acquirer'],
      instrument_params: { captured_on_creation: false },
    })
    expect((await api('DELETE', `/instruments/${instrument.id}`)).status).toBe(204)
    await eventually(async () => {
      expect((await eventTypesOf(api, chargeId)).slice(-3)).toEqual([
        'reversal.pending',
        'reversal.success',
        'instrument.invalid',
      ])
    })
    expect((await api('GET', `/instruments/${instrument.id}`)).body.status).toBe('invalid')
  })

  it('invalidates an instrument awaiting 3-D Secure; its challenge link stops working', async () => {
    const { chargeId, instrument } = await authorized({ instrument_params: { enable3ds: true } })
    expect(instrument.status).toBe('pending')
    const form = await challengeForm(instrument.redirect.url)
    expect((await api('DELETE', `/instruments/${instrument.id}`)).status).toBe(204)
    const read = await api('GET', `/instruments/${instrument.id}`)
    expect(read.body).toMatchObject({ status: 'invalid', redirect: null })
    expect((await postChallenge(form, 'authorize')).status).toBe(404)
    // The link now shows the outcome instead of the challenge.
    expect(await (await fetch(instrument.redirect.url)).text()).toContain('Verification failed')
    expect((await eventTypesOf(api, chargeId)).at(-1)).toBe('instrument.invalid')
  })

  it('answers 404 for an unknown instrument', async () => {
    expect((await api('DELETE', '/instruments/in_missing')).status).toBe(404)
  })
})

describe('GET /v2/charges/types', () => {
  it("lists the account's charge types with the JSON Schema of their instrument request", async () => {
    const answer = await api('GET', '/charges/types')
    expect(answer.status).toBe(200)
    const { collection } = chargeTypeListSchema.parse(answer.body)
    expect(collection.map(({ id, label, recurring }) => ({ id, label, recurring }))).toEqual([
      { id: 'card_onetime', label: 'Card one-time payment', recurring: false },
      { id: 'card_recurring', label: 'Card recurring payment', recurring: true },
      { id: 'card', label: 'Card payment', recurring: false },
      { id: 'mbway', label: 'MB WAY', recurring: false },
      { id: 'multibanco', label: 'Multibanco', recurring: false },
      { id: 'payshop_reference', label: 'Payshop reference', recurring: false },
      { id: 'paypal', label: 'PayPal', recurring: false },
    ])
    const byId = new Map(collection.map((type) => [type.id, type]))
    expect(byId.get('card_onetime')).toMatchObject({ refundable: true, currencies: null })
    expect(byId.get('mbway')).toMatchObject({ refundable: true, currencies: ['EUR'] })
    expect(byId.get('multibanco')).toMatchObject({ refundable: false, currencies: ['EUR'] })
    const inDollars = await harness.createCharge({ charge_type: 'mbway', currency: 'USD' })
    expect(inDollars.status).toBe(400)
    expect(inDollars.body.parameters).toEqual({
      currency: ['Expected EUR: MB WAY takes no other'],
    })
    const restrictedTypes = await harness.as(restricted)('GET', '/charges/types')
    expect(restrictedTypes.body.collection.map((type: { id: string }) => type.id)).toEqual([
      'card_recurring',
    ])
  })

  it('reads as the provider’s browser form library reads it: no payouts, titles, no charge field', async () => {
    const { collection } = (await api('GET', '/charges/types')).body
    for (const type of collection) {
      // The library keeps only entries whose payout is exactly false, and sorts them by title.
      expect(type.payout, type.id).toBe(false)
      expect(type.schema.title, type.id).toBe(type.label)
      // The library supplies the charge id itself: a charge input would block the form.
      expect(type.schema.properties ?? {}, type.id).not.toHaveProperty('charge')
      expect(type.schema.required ?? [], type.id).not.toContain('charge')
      for (const [name, field] of Object.entries<{ title?: unknown }>(
        type.schema.properties ?? {},
      )) {
        expect(typeof field.title, `${type.id}.${name}`).toBe('string')
      }
    }
    const card = collection.find((type: { id: string }) => type.id === 'card_onetime')
    expect(
      Object.fromEntries(
        Object.entries<{ title: string }>(card.schema.properties).map(([name, field]) => [
          name,
          field.title,
        ]),
      ),
    ).toEqual({
      name: 'Cardholder name',
      number: 'Card number',
      expiration_month: 'Expiry month',
      expiration_year: 'Expiry year',
      cvc: 'Security code (CVC)',
    })
    const number = new RegExp(card.schema.properties.number.pattern)
    for (const typed of ['4242 4242 4242 4242', '4242-4242-4242-4242', '4242424242424242']) {
      expect(typed).toMatch(number)
    }
  })

  it('reads the card number as the customer typed it, spaces and dashes removed, with either key', async () => {
    const [account] = harness.sandbox.accounts
    const browser = harness.as({ id: account?.publicKey ?? '', key: '' })
    const fingerprints = new Set<string>()
    for (const number of ['4242 4242 4242 4242', '4242-4242-4242-4242', '4242424242424242']) {
      for (const caller of [api, browser]) {
        const charge = await harness.createCharge()
        const instrument = await caller('POST', '/instruments', {
          ...testCard(charge.body.id),
          number,
        })
        expect(instrument.status, number).toBe(201)
        expect(instrument.body.status).toBe('authorized')
        expect(instrument.body.params).toMatchObject({ bin: '424242', last_4_digits: '4242' })
        expect(instrument.headers.get('chargekit-integration-warnings')).toBeNull()
        fingerprints.add(instrument.body.params.fingerprint)
      }
    }
    // The same card, however it was grouped.
    expect(fingerprints.size).toBe(1)
  })

  it('describes exactly what POST /v2/instruments accepts and refuses', async () => {
    const schema = (await api('GET', '/charges/types')).body.collection[0].schema
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
    })
    const properties: Record<string, JsonSchemaProperty> = schema.properties
    const charge = async () => (await harness.createCharge()).body.id as string
    // A card drawn from the schema alone is accepted.
    const drawn = Object.fromEntries(
      Object.entries(properties).map(([field, property]) => [field, validValue(property)]),
    )
    expect(Object.keys(drawn).sort()).toEqual([...schema.required].sort())
    const accepted = await api('POST', '/instruments', { ...drawn, charge: await charge() })
    expect(accepted.status).toBe(201)
    // Each constraint the schema states is one the sandbox enforces, naming the field.
    for (const [field, property] of Object.entries(properties)) {
      const valid: Record<string, unknown> = { ...drawn, charge: await charge() }
      const { [field]: _omitted, ...withoutField } = valid
      for (const body of [withoutField, { ...valid, [field]: invalidValue(property) }]) {
        const refused = await api('POST', '/instruments', body)
        expect(refused.status, field).toBe(400)
        expect(Object.keys(refused.body.parameters), field).toEqual([field])
      }
    }
  })

  it('is not taken for a charge id', async () => {
    expect((await api('GET', '/charges/types')).body.collection).toBeDefined()
    expect((await api('GET', '/charges/ch_missing')).status).toBe(404)
  })
})

describe('recurring instruments are tokens', () => {
  it('take payments of any amount, any number of times, after a 1 EUR verification', async () => {
    const { chargeId, instrument } = await authorized({ charge_type: 'card_recurring', amount: 1 })
    expect(instrument).toMatchObject({ status: 'authorized', recurring: true, captured_amount: 0 })
    for (const amount of [25, 100, 3.5]) {
      const payment = await pay(instrument.id, amount)
      expect(payment.status).toBe(201)
      expect(payment.body).toMatchObject({ amount, status: 'success' })
    }
    expect((await api('GET', `/instruments/${instrument.id}`)).body.captured_amount).toBe(128.5)
    expect(
      (await eventTypesOf(api, chargeId)).filter((type) => type === 'payment.success'),
    ).toEqual(['payment.success', 'payment.success', 'payment.success'])
  })

  it('leave one-time instruments capped at authorized − captured', async () => {
    const { instrument } = await authorized({ instrument_params: { captured_on_creation: false } })
    expect((await pay(instrument.id, 6)).status).toBe(201)
    const over = await pay(instrument.id, 4.01)
    expect(over.status).toBe(409)
    expect(over.body.failure_code).toBe('01.02.0000')
    expect((await pay(instrument.id, 4)).status).toBe(201)
    const full = await pay(instrument.id, 0.01)
    expect(full.status).toBe(409)
    expect(full.body.failure_code).toBe('05.04.0001')
  })
})

describe('enable3ds on the default no_processor channel', () => {
  it('leaves the instrument pending with a redirect, then authorizes and captures', async () => {
    const { chargeId, instrument } = await authorized({ instrument_params: { enable3ds: true } })
    expect(instrument).toMatchObject({ status: 'pending', channel: { processor: 'no_processor' } })
    expect(instrument.params.enable3ds).toBe(true)
    const url = new URL(instrument.redirect.url)
    expect(`${url.origin}${url.pathname}`).toBe(
      `${harness.sandbox.url}/v2/instruments/${instrument.id}/redirect`,
    )
    expect(instrument.redirect.method).toBe('GET')
    expect((await completeChallenge(instrument.redirect.url, 'authorize')).status).toBe(200)
    const read = await api('GET', `/instruments/${instrument.id}`)
    expect(read.body).toMatchObject({ status: 'authorized', redirect: null, captured_amount: 10 })
    expect(await eventTypesOf(api, chargeId)).toEqual([
      'charge.created',
      'charge.confirmed',
      'instrument.created',
      'instrument.risk',
      'instrument.pending',
      'instrument.authorized',
      'payment.success',
    ])
  })

  it('invalidates the instrument when the customer fails authentication', async () => {
    const { chargeId, instrument } = await authorized({
      charge_type: 'card_recurring',
      instrument_params: { enable3ds: true },
    })
    expect((await completeChallenge(instrument.redirect.url, 'fail')).status).toBe(200)
    const read = await api('GET', `/instruments/${instrument.id}`)
    expect(read.body).toMatchObject({
      status: 'invalid',
      failure_code: '06.01.0000',
      failure_description: '3DS Error',
    })
    expect((await eventTypesOf(api, chargeId)).slice(-2)).toEqual([
      'instrument.risk',
      'instrument.invalid',
    ])
  })

  it('declines a .20 amount before any challenge', async () => {
    const charge = await harness.createCharge({
      amount: encodeTestAmount('03.03.0000', 'instrument'),
      instrument_params: { enable3ds: true },
    })
    const answer = await api('POST', '/instruments', testCard(charge.body.id))
    expect(answer.status).toBe(402)
    expect(answer.body.failure_code).toBe('03.03.0000')
  })
})

interface JsonSchemaProperty {
  type: 'string' | 'integer'
  minLength?: number
  pattern?: string
  minimum?: number
  maximum?: number
}

/** A value the property allows: digits for a pattern, the bounds' midpoint for an integer. */
function validValue(property: JsonSchemaProperty): string | number {
  if (property.type === 'integer') {
    const low = property.minimum ?? 0
    return Math.floor((low + (property.maximum ?? low)) / 2)
  }
  if (property.pattern !== undefined) {
    const sample = ['4242424242424242', '123'].find((candidate) =>
      new RegExp(property.pattern ?? '').test(candidate),
    )
    if (sample === undefined) throw new Error(`no sample for ${property.pattern}`)
    return sample
  }
  return 'x'.repeat(Math.max(1, property.minLength ?? 1))
}

/** A value of the right type the property refuses: out of bounds, off-pattern, too short. */
function invalidValue(property: JsonSchemaProperty): string | number {
  if (property.type === 'integer') return (property.maximum ?? 0) + 1
  if (property.pattern !== undefined) return 'abc'
  return ''
}
