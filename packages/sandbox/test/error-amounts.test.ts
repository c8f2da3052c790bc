import {
  encodeTestAmount,
  errorCodes,
  lookupErrorCode,
  type TestElement,
  testElements,
} from '@chargekit/errors'
import { processorErrorBodySchema } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiCaller, startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'
import { eventTypesOf } from './event-types'

let harness: TestSandbox
let api: ApiCaller

beforeAll(async () => {
  // Events are recorded and read back, not delivered: 400 flows need no receiver.
  harness = await startTestSandbox({ deliverEvents: false })
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

type ChargeType = 'card_onetime' | 'card_recurring' | 'card'

/** A charge on the test channel with the account's defaults, unless `instrumentParams` says. */
async function charge(
  amount: number,
  chargeType: ChargeType = 'card_onetime',
  instrumentParams?: Record<string, boolean>,
) {
  return api('POST', '/charges', {
    charge_type: chargeType,
    amount,
    currency: 'USD',
    channels: [`${chargeType}_no_processor`],
    events_url: harness.eventsUrl,
    ...(instrumentParams === undefined ? {} : { instrument_params: instrumentParams }),
  })
}

const designationOf = (code: string) => lookupErrorCode(code)?.designation

/**
 * Runs the flow up to the element the amount makes fail, with default settings, and checks
 * status, body, state and events. A one-time charge is captured on creation, so its payment
 * element fails the instrument request itself; a recurring one is not, so its payments are
 * explicit.
 */
const checks: Record<TestElement, (code: string, chargeType: ChargeType) => Promise<void>> = {
  async charge(code, chargeType) {
    const answer = await charge(encodeTestAmount(code, 'charge'), chargeType)
    const id = answer.body.metadata?.charge
    expectDecline(answer, code, { charge: id })
    const stored = await api('GET', `/charges/${id}`)
    expect(stored.body).toMatchObject({
      confirmed: false,
      failure_code: code,
      failure_description: designationOf(code),
    })
    expect(await eventTypesOf(api, id)).toEqual(['charge.created', 'charge.error'])
    // A failed charge takes no instrument, and says why with its own failure.
    const refused = await api('POST', '/instruments', testCard(id))
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      failure_code: code,
      failure_description: designationOf(code),
    })
  },

  async instrument(code, chargeType) {
    const created = await charge(encodeTestAmount(code, 'instrument'), chargeType)
    expect(created.status).toBe(201)
    const answer = await api('POST', '/instruments', testCard(created.body.id))
    const id = answer.body.metadata?.instrument
    expectDecline(answer, code, { charge: created.body.id, instrument: id })
    const stored = await api('GET', `/instruments/${id}`)
    expect(stored.body).toMatchObject({
      status: 'invalid',
      success: false,
      failure_code: code,
      failure_description: designationOf(code),
    })
    const risk = code.startsWith('06.') ? ['instrument.risk'] : []
    expect(await eventTypesOf(api, created.body.id)).toEqual([
      ...base,
      'instrument.created',
      ...risk,
      'instrument.invalid',
    ])
  },

  async payment(code, chargeType) {
    const amount = encodeTestAmount(code, 'payment')
    const created = await charge(amount, chargeType)
    let instrument = await api('POST', '/instruments', testCard(created.body.id))
    let answer = instrument
    if (chargeType === 'card_recurring') {
      expect(instrument.body.status).toBe('authorized')
      answer = await api('POST', '/payments', {
        instrument: instrument.body.id,
        amount,
        currency: 'USD',
      })
    }
    const ids = answer.body.metadata ?? {}
    expectDecline(answer, code, {
      charge: created.body.id,
      instrument: ids.instrument,
      payment: ids.payment,
    })
    const stored = await api('GET', `/payments/${ids.payment}`)
    expect(stored.body).toMatchObject({ status: 'error', success: false, failure_code: code })
    instrument = await api('GET', `/instruments/${ids.instrument}`)
    if (chargeType === 'card_recurring') {
      // A failed step leaves its parent unchanged.
      expect(instrument.body).toMatchObject({ status: 'authorized', captured_amount: 0 })
      expect(await eventTypesOf(api, created.body.id)).toEqual([...authorized, 'payment.error'])
    } else {
      // The automatic capture is part of the instrument step: the instrument fails with it.
      expect(instrument.body).toMatchObject({
        status: 'invalid',
        success: false,
        failure_code: code,
        failure_description: designationOf(code),
      })
      expect(await eventTypesOf(api, created.body.id)).toEqual([
        ...authorized,
        'payment.error',
        'instrument.invalid',
      ])
    }
  },

  async refund(code, chargeType) {
    const amount = encodeTestAmount(code, 'refund')
    const created = await charge(amount, chargeType)
    const instrument = await api('POST', '/instruments', testCard(created.body.id))
    if (chargeType === 'card_recurring') {
      const paid = await api('POST', '/payments', {
        instrument: instrument.body.id,
        amount: 1,
        currency: 'USD',
      })
      expect(paid.status).toBe(201)
    }
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

  async reversal(code, chargeType) {
    const created = await charge(encodeTestAmount(code, 'reversal'), chargeType)
    // Not captured on creation, even for a one-time charge: there is something to reverse.
    expect(created.body.instrument_params.captured_on_creation).toBe(false)
    const instrument = await api('POST', '/instruments', testCard(created.body.id))
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

describe('every catalogue code at every element, default settings (no_processor)', () => {
  it('covers the whole catalogue', () => {
    expect(errorCodes.length).toBe(40)
  })

  const everyCode = errorCodes.map(({ code }) => code)
  const codeOfEachCategory = [
    ...new Map(errorCodes.map(({ category, code }) => [category, code])).values(),
  ]

  // A recurring charge differs from a one-time one where money moves: its payment is an
  // explicit capture, not part of the instrument step. Its charge, instrument and reversal
  // elements take the one-time charge's path, which the first case covers for every code.
  // `card`, the later API's name for a one-time card charge, has channels of its own
  // (`card_no_processor`) on the same path.
  it.each<[ChargeType, string, readonly TestElement[], readonly string[]]>([
    ['card_onetime', 'every element', testElements, everyCode],
    ['card_recurring', 'its payment and refund', ['payment', 'refund'], everyCode],
    ['card', 'every element, a code of each category', testElements, codeOfEachCategory],
  ])('%s at %s', { timeout: 30_000 }, async (chargeType, _, elements, codes) => {
    expect(codes.length).toBeGreaterThanOrEqual(7)
    // Independent transactions, a few at a time; every failure is reported, named.
    const cases = codes.flatMap((code) => elements.map((element) => ({ code, element })))
    const failures: string[] = []
    const worker = async () => {
      for (let next = cases.shift(); next !== undefined; next = cases.shift()) {
        const { code, element } = next
        await checks[element](code, chargeType).catch((error: Error) => {
          failures.push(`${code} at ${element}: ${error.message}`)
        })
      }
    }
    await Promise.all(Array.from({ length: 4 }, worker))
    expect(failures).toEqual([])
  })
})

describe('the automatic capture and the reversal element', () => {
  it('captures a .50 charge on creation when captured_on_creation is set explicitly', async () => {
    const created = await charge(encodeTestAmount('03.03.0000', 'reversal'), 'card_onetime', {
      captured_on_creation: true,
    })
    expect(created.body.instrument_params.captured_on_creation).toBe(true)
    const instrument = await api('POST', '/instruments', testCard(created.body.id))
    expect(instrument.body.captured_amount).toBe(created.body.amount)
  })

  it('leaves the instrument authorized when a .30 charge is not captured on creation', async () => {
    const created = await charge(encodeTestAmount('03.03.0001', 'payment'), 'card_onetime', {
      captured_on_creation: false,
    })
    const instrument = await api('POST', '/instruments', testCard(created.body.id))
    expect(instrument.status).toBe(201)
    expect(instrument.body.status).toBe('authorized')
  })
})

describe('amounts that encode nothing', () => {
  it.each([42, 42.25, 6020000.6, 12345678.2])('%s goes through every step', async (amount) => {
    const created = await charge(amount, 'card_onetime', { captured_on_creation: true })
    expect(created.status).toBe(201)
    const instrument = await api('POST', '/instruments', testCard(created.body.id))
    expect(instrument.status).toBe(201)
    expect(instrument.body.captured_amount).toBe(amount)
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
        ...testCard(created.body.id),
        expiration_year: year - 1,
      })
      expectDecline(answer, '03.00.0002', {
        charge: created.body.id,
        instrument: answer.body.metadata?.instrument,
      })
    }
  })
})
