import { encodeTestAmount, errorCodes, lookupErrorCode, type TestElement } from '@chargekit/errors'
import { processorErrorBodySchema } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ApiCaller,
  cardFor,
  eventTypesOf,
  type Harness,
  startHarness,
} from './sandbox-harness'

let harness: Harness
let api: ApiCaller

beforeAll(async () => {
  harness = await startHarness()
  api = harness.api
})
afterAll(() => harness.close())

const base = ['charge.created', 'charge.confirmed']
const authorized = [...base, 'instrument.created', 'instrument.authorized']

function expectDecline(
  answer: { status: number; body: unknown },
  code: string,
  ids: Record<string, string>,
) {
  const designation = lookupErrorCode(code)?.designation
  expect(answer.status).toBe(402)
  processorErrorBodySchema.parse(answer.body)
  expect(answer.body).toEqual({
    message: 'Transaction Error',
    metadata: { failure_description: designation, ...ids },
    failure_code: code,
    failure_description: designation,
  })
}

async function charge(amount: number, capturedOnCreation = false) {
  const answer = await api('POST', '/charges', {
    charge_type: 'card_onetime',
    amount,
    currency: 'USD',
    channels: ['card_onetime_no_processor'],
    events_url: harness.eventsUrl,
    instrument_params: { captured_on_creation: capturedOnCreation },
  })
  return answer
}

/** Runs the flow up to the element the amount makes fail and checks status, body, state, events. */
const checks: Record<TestElement, (code: string) => Promise<void>> = {
  async charge(code) {
    const answer = await charge(encodeTestAmount(code, 'charge'))
    const id = answer.body.metadata?.charge
    expectDecline(answer, code, { charge: id })
    const stored = await api('GET', `/charges/${id}`)
    expect(stored.body).toMatchObject({
      confirmed: false,
      failure_code: code,
      failure_description: lookupErrorCode(code)?.designation,
    })
    expect(await eventTypesOf(api, id)).toEqual(['charge.created', 'charge.error'])
    // A failed charge takes no instrument.
    expect((await api('POST', '/instruments', cardFor(id))).status).toBe(409)
  },

  async instrument(code) {
    const created = await charge(encodeTestAmount(code, 'instrument'))
    expect(created.status).toBe(201)
    const answer = await api('POST', '/instruments', cardFor(created.body.id))
    const id = answer.body.metadata?.instrument
    expectDecline(answer, code, { charge: created.body.id, instrument: id })
    const stored = await api('GET', `/instruments/${id}`)
    expect(stored.body).toMatchObject({
      status: 'invalid',
      success: false,
      failure_code: code,
      failure_description: lookupErrorCode(code)?.designation,
    })
    const risk = code.startsWith('06.') ? ['instrument.risk'] : []
    expect(await eventTypesOf(api, created.body.id)).toEqual([
      ...base,
      'instrument.created',
      ...risk,
      'instrument.invalid',
    ])
  },

  async payment(code) {
    const amount = encodeTestAmount(code, 'payment')
    const created = await charge(amount)
    const instrument = await api('POST', '/instruments', cardFor(created.body.id))
    expect(instrument.body.status).toBe('authorized')
    const answer = await api('POST', '/payments', {
      instrument: instrument.body.id,
      amount,
      currency: 'USD',
    })
    const id = answer.body.metadata?.payment
    expectDecline(answer, code, {
      charge: created.body.id,
      instrument: instrument.body.id,
      payment: id,
    })
    const stored = await api('GET', `/payments/${id}`)
    expect(stored.body).toMatchObject({ status: 'error', success: false, failure_code: code })
    // A failed step leaves its parent unchanged.
    const parent = await api('GET', `/instruments/${instrument.body.id}`)
    expect(parent.body).toMatchObject({ status: 'authorized', captured_amount: 0 })
    expect(await eventTypesOf(api, created.body.id)).toEqual([...authorized, 'payment.error'])
  },

  async refund(code) {
    const amount = encodeTestAmount(code, 'refund')
    const created = await charge(amount, true)
    const instrument = await api('POST', '/instruments', cardFor(created.body.id))
    const payment = (await api('GET', `/payments?instrument=${instrument.body.id}`)).body
      .collection[0]
    expect(payment.status).toBe('success')
    const answer = await api('POST', `/payments/${payment.id}/refund`, { amount: 1 })
    const id = answer.body.metadata?.refund
    expectDecline(answer, code, {
      charge: created.body.id,
      instrument: instrument.body.id,
      payment: payment.id,
      refund: id,
    })
    const stored = await api('GET', `/refunds/${id}`)
    expect(stored.body).toMatchObject({ status: 'error', success: false, failure_code: code })
    expect((await api('GET', `/payments/${payment.id}`)).body.refunded_amount).toBe(0)
    expect(await eventTypesOf(api, created.body.id)).toEqual([
      ...authorized,
      'payment.success',
      'refund.error',
    ])
  },

  async reversal(code) {
    const created = await charge(encodeTestAmount(code, 'reversal'))
    const instrument = await api('POST', '/instruments', cardFor(created.body.id))
    const answer = await api('POST', `/instruments/${instrument.body.id}/reversal`)
    const id = answer.body.metadata?.reversal
    expectDecline(answer, code, {
      charge: created.body.id,
      instrument: instrument.body.id,
      reversal: id,
    })
    const stored = await api('GET', `/reversals/${id}`)
    expect(stored.body).toMatchObject({ status: 'error', success: false, failure_code: code })
    expect((await api('GET', `/instruments/${instrument.body.id}`)).body.status).toBe('authorized')
    expect(await eventTypesOf(api, created.body.id)).toEqual([...authorized, 'reversal.error'])
  },
}

describe('every catalogue code at every element (no_processor)', () => {
  it('covers the whole catalogue', () => {
    expect(errorCodes.length).toBe(40)
  })

  it.each(errorCodes.map((info) => info.code))('%s', async (code) => {
    // Five independent transactions: run them side by side.
    await Promise.all(
      (Object.keys(checks) as TestElement[]).map((element) => checks[element](code)),
    )
  })
})

describe('amounts that encode nothing', () => {
  it.each([42, 42.25, 6020000.6, 12345678.2])('%s goes through every step', async (amount) => {
    const created = await charge(amount, true)
    expect(created.status).toBe(201)
    const instrument = await api('POST', '/instruments', cardFor(created.body.id))
    expect(instrument.status).toBe(201)
    expect(instrument.body.captured_amount).toBe(amount)
  })
})

describe('capture on creation with a .30 amount', () => {
  it('authorizes the instrument, fails the payment and answers 402 naming the payment', async () => {
    const created = await charge(encodeTestAmount('03.03.0001', 'payment'), true)
    const answer = await api('POST', '/instruments', cardFor(created.body.id))
    const { instrument, payment } = answer.body.metadata ?? {}
    expectDecline(answer, '03.03.0001', { charge: created.body.id, instrument, payment })
    expect((await api('GET', `/instruments/${instrument}`)).body.status).toBe('authorized')
    expect(await eventTypesOf(api, created.body.id)).toEqual([...authorized, 'payment.error'])
  })
})

describe('expired cards', () => {
  it('are declined with 03.00.0002 on every processor', async () => {
    const year = new Date().getUTCFullYear()
    for (const channel of ['card_onetime_no_processor', 'card_onetime_simulated_acquirer']) {
      const created = await api('POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 10,
        currency: 'USD',
        channels: [channel],
        events_url: harness.eventsUrl,
      })
      const answer = await api('POST', '/instruments', {
        ...cardFor(created.body.id),
        expiration_year: year - 1,
      })
      expectDecline(answer, '03.00.0002', {
        charge: created.body.id,
        instrument: answer.body.metadata?.instrument,
      })
    }
  })
})
