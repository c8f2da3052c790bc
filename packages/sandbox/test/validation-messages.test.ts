import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authorization, startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'

/**
 * What a 400 says about each field, over real HTTP: what the field is, from the description the
 * OpenAPI document shows, wherever the value is missing or of the wrong kind.
 */

let harness: TestSandbox
let chargeId: string

beforeAll(async () => {
  harness = await startTestSandbox({ transport: 'http', deliverEvents: false })
  chargeId = (await harness.createCharge()).body.id
})
afterAll(() => harness.close())

const month = "Expected the card's expiry month, a number from 1 to 12"

async function cardProblems(fields: Record<string, unknown>) {
  const answer = await harness.api('POST', '/instruments', testCard(chargeId, fields))
  expect(answer.status).toBe(400)
  expect(answer.body.failure_code).toBe('01.01.0000')
  return answer.body.parameters
}

describe('a card with a problem', () => {
  it('an empty month, as a form that was left empty sends it, says what the month is', async () => {
    expect(await cardProblems({ expiration_month: '' })).toEqual({ expiration_month: [month] })
  })

  it('a month out of range, not whole, or of the wrong kind says the same', async () => {
    for (const expiration_month of [0, 13, 12.5, '12.5', 'May', true, null]) {
      expect(await cardProblems({ expiration_month }), String(expiration_month)).toEqual({
        expiration_month: [month],
      })
    }
  })

  it('sent as form fields, every field of the card says what it is', async () => {
    const [account] = harness.sandbox.accounts
    const response = await fetch(`${harness.sandbox.apiUrl}/instruments`, {
      method: 'POST',
      headers: {
        authorization: authorization(account?.id ?? '', account?.privateKey ?? ''),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        charge: chargeId,
        name: '',
        number: '4242 42',
        expiration_month: '',
        expiration_year: '30',
        cvc: '12345',
      }).toString(),
    })
    expect(response.status).toBe(400)
    expect((await response.json()).parameters).toEqual({
      name: ["Expected the cardholder's name, as on the card"],
      number: ['Expected the card number: 12 to 19 digits, grouped by spaces or dashes or not'],
      expiration_month: [month],
      expiration_year: ["Expected the card's expiry year, in four digits such as 2030"],
      cvc: ["Expected the card's security code: the 3 or 4 digits printed on it"],
    })
  })

  it('a request with nothing names every field and what it is', async () => {
    const answer = await harness.api('POST', '/instruments', {})
    expect(answer.body.parameters).toEqual({
      charge: ['Required: the id of the charge the customer pays, such as ch_…'],
      name: ["Required: the cardholder's name, as on the card"],
      number: ['Required: the card number: 12 to 19 digits, grouped by spaces or dashes or not'],
      expiration_month: [`Required: ${month.slice(9)}`],
      expiration_year: ["Required: the card's expiry year, in four digits such as 2030"],
      cvc: ["Required: the card's security code: the 3 or 4 digits printed on it"],
    })
  })
})

describe('the other requests', () => {
  it('a charge: each field says what it is; a rule of its own keeps its own message', async () => {
    const answer = await harness.api('POST', '/charges', {
      charge_type: '',
      amount: 'twenty',
      currency: 'EUR',
      channels: [7],
      confirmed: 'perhaps',
      instrument_params: { enable3ds: 'sometimes' },
    })
    expect(answer.status).toBe(400)
    expect(answer.body.parameters).toEqual({
      charge_type: [
        "Expected the payment method the customer pays with, such as card_onetime or mbway (charges.types lists the account's)",
      ],
      amount: [
        "Expected the amount to charge: a number in the currency's major units, greater than 0, such as 20.5 for 20.50 EUR",
      ],
      events_url: ["Required: the address that receives the charge's events, an https:// URL"],
      'channels.0': [
        'Expected a channel label: the charge type, an underscore and the processor channel, such as card_onetime_no_processor',
      ],
      confirmed: [
        'Expected true or false: false creates the charge unconfirmed, taking no instrument until charges.confirm; absent or true confirms it at once',
      ],
      'instrument_params.enable3ds': [
        'Expected true or false: whether the customer goes through 3-D Secure',
      ],
    })
    const precision = await harness.createCharge({ amount: 10.123 })
    expect(precision.body.parameters).toEqual({ amount: ['Expected at most 2 decimals for EUR'] })
  })

  it('a payment, a refund and a list query say what each field is', async () => {
    expect((await harness.api('POST', '/payments', { amount: 5 })).body.parameters).toEqual({
      instrument: ['Required: the id of the authorized instrument to capture from, such as in_…'],
      currency: ["Required: the currency of the amount, the charge's ISO 4217 code such as EUR"],
    })
    expect((await harness.api('POST', '/refunds', { payment: 'pa_1' })).body.parameters).toEqual({
      amount: [
        "Required: the amount to refund: a number in the payment's currency, greater than 0 and at most what the payment has not refunded yet",
      ],
    })
    const list = await harness.api('GET', '/payments?page=0&per_page=500')
    expect(list.body.parameters).toEqual({
      page: ['Expected the page to return, counted from 1 (default 1)'],
      per_page: ['Expected the number of objects a page holds, from 1 to 100 (default 30)'],
    })
  })
})
