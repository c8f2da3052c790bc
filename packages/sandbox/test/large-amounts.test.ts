import { chargeSchema, instrumentSchema, settlementSchema } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultAccount } from '../src/index'
import { type ApiCaller, startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'
import { eventTypesOf } from './event-types'

/** The largest USD amount whose minor units (15 digits) are exact as a JSON number. */
const largestUsd = 9_999_999_999_999.99
/** 17 digits in minor units: a double cannot carry every such amount exactly. */
const tooLargeUsd = 123_456_789_012_345.67

// Accounts of their own, so that their settlements hold only the payments of one test.
const flowing = { id: 'acct_large_flow', key: 'sk_large_flow' }
const settling = { id: 'acct_large_settle', key: 'sk_large_settle' }
let harness: TestSandbox

beforeAll(async () => {
  harness = await startTestSandbox({
    accounts: [defaultAccount, flowing, settling],
    deliverEvents: false,
  })
})
afterAll(() => harness.close())

/** Every count and object a failed request could have touched, as one comparable text. */
async function stateOf(api: ApiCaller, ...paths: string[]) {
  const totals = await Promise.all(
    ['/charges', '/payments', '/events'].map(
      async (path) => (await api('GET', `${path}?per_page=1`)).body.pagination.total,
    ),
  )
  const objects = await Promise.all(paths.map(async (path) => (await api('GET', path)).body))
  return JSON.stringify({ totals, objects })
}

async function charge(api: ApiCaller, body: Record<string, unknown>) {
  const answer = await api('POST', '/charges', {
    charge_type: 'card_onetime',
    currency: 'USD',
    events_url: harness.eventsUrl,
    ...body,
  })
  expect(answer.status).toBe(201)
  return chargeSchema.parse(answer.body)
}

describe('amounts too large to stay exact', () => {
  it('refuses such a charge with 400 naming amount, storing nothing', async () => {
    const before = await stateOf(harness.api)
    const answer = await harness.api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: tooLargeUsd,
      currency: 'USD',
      events_url: harness.eventsUrl,
    })
    expect(answer.status).toBe(400)
    expect(answer.body.failure_code).toBe('01.01.0000')
    expect(answer.body.parameters.amount).toEqual([expect.any(String)])
    expect(await stateOf(harness.api)).toBe(before)
  })

  it('refuses one as a refund, reversal or dispute amount with 400, changing nothing', async () => {
    const api = harness.api
    const captured = await charge(api, { amount: 10 })
    await api('POST', '/instruments', testCard(captured.id))
    const payment = (await api('GET', `/payments?charge=${captured.id}`)).body.collection[0]
    const uncaptured = await charge(api, {
      amount: 10,
      instrument_params: { captured_on_creation: false },
    })
    const instrument = await api('POST', '/instruments', testCard(uncaptured.id))
    const paths = [`/payments/${payment.id}`, `/instruments/${instrument.body.id}`]
    const before = await stateOf(api, ...paths)
    for (const [path, body] of [
      [`/payments/${payment.id}/refund`, { amount: tooLargeUsd }],
      [`/instruments/${instrument.body.id}/reversal`, { amount: tooLargeUsd }],
      [`/test/payments/${payment.id}/dispute`, { amount: tooLargeUsd }],
      [`/payments/${payment.id}/refund`, { amount: 1e300 }],
    ] as const) {
      const answer = await api('POST', path, body)
      expect(answer.status, path).toBe(400)
      expect(answer.body.failure_code).toBe('01.01.0000')
      expect(answer.body.parameters.amount).toEqual([expect.any(String)])
    }
    expect(await stateOf(api, ...paths)).toBe(before)
  })
})

describe('the largest exact amount', () => {
  it('runs a whole flow cleanly: capture on creation, refund, dispute, settlement', async () => {
    const api = harness.as(flowing)
    const created = await charge(api, { amount: largestUsd })
    expect(created.amount).toBe(largestUsd)
    const instrument = await api('POST', '/instruments', testCard(created.id))
    expect(instrument.status).toBe(201)
    expect(instrumentSchema.parse(instrument.body)).toMatchObject({
      status: 'authorized',
      amount: largestUsd,
      captured_amount: largestUsd,
    })
    const payment = (await api('GET', `/payments?charge=${created.id}`)).body.collection[0]
    expect(payment).toMatchObject({ status: 'success', amount: largestUsd })
    const refund = await api('POST', `/payments/${payment.id}/refund`, { amount: 0.01 })
    expect(refund.body.status).toBe('success')
    expect((await api('GET', `/payments/${payment.id}`)).body.refunded_amount).toBe(0.01)
    const dispute = await api('POST', `/test/payments/${payment.id}/dispute`)
    expect(dispute.status).toBe(201)
    expect(dispute.body.amount).toBe(9_999_999_999_999.98)
    const settlement = await api('POST', '/test/settlements')
    expect(settlement.status).toBe(201)
    expect(settlement.body).toMatchObject({
      payments: [payment.id],
      refunds: [refund.body.id],
      totals: [
        {
          currency: 'USD',
          payments_amount: largestUsd,
          refunds_amount: 0.01,
          net_amount: 9_999_999_999_999.98,
        },
      ],
    })
    expect(await eventTypesOf(api, created.id)).toEqual([
      'charge.created',
      'charge.confirmed',
      'instrument.created',
      'instrument.authorized',
      'payment.success',
      'refund.success',
      'dispute.created',
      'payment.settled',
      'refund.settled',
      'instrument.settled',
    ])
  })

  it('refuses a recurring capture whose captured total could not be exact (409), writing nothing', async () => {
    const api = harness.api
    const created = await charge(api, { charge_type: 'card_recurring', amount: largestUsd })
    const instrument = await api('POST', '/instruments', testCard(created.id))
    const capture = () =>
      api('POST', '/payments', {
        instrument: instrument.body.id,
        amount: largestUsd,
        currency: 'USD',
      })
    const first = await capture()
    expect(first.body.status).toBe('success')
    const paths = [`/instruments/${instrument.body.id}`]
    const before = await stateOf(api, ...paths)
    const second = await capture()
    expect(second.status).toBe(409)
    expect(second.body.failure_code).toBe('01.02.0000')
    expect(await stateOf(api, ...paths)).toBe(before)
    expect((await api('GET', paths[0] ?? '')).body.captured_amount).toBe(largestUsd)
  })

  it('settles what a batch cannot total exactly in the next batch', async () => {
    const api = harness.as(settling)
    const paymentIds: string[] = []
    for (let index = 0; index < 2; index++) {
      const created = await charge(api, { amount: largestUsd })
      await api('POST', '/instruments', testCard(created.id))
      paymentIds.push((await api('GET', `/payments?charge=${created.id}`)).body.collection[0].id)
    }
    const batches = []
    for (let index = 0; index < 3; index++) {
      const answer = await api('POST', '/test/settlements')
      expect(answer.status).toBe(201)
      batches.push(settlementSchema.parse(answer.body))
    }
    expect(batches.map((batch) => batch.payments)).toEqual([[paymentIds[0]], [paymentIds[1]], []])
    expect(batches[0]?.totals).toEqual([
      {
        currency: 'USD',
        payments_amount: largestUsd,
        refunds_amount: 0,
        net_amount: largestUsd,
      },
    ])
  })
})
