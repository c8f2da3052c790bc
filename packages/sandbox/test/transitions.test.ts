import { encodeTestAmount } from '@chargekit/errors'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiAnswer, startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'

let harness: TestSandbox

beforeAll(async () => {
  harness = await startTestSandbox({ timeScale: 1 })
})
afterAll(() => harness.close())

async function charge(body: Record<string, unknown> = {}) {
  const answer = await harness.api('POST', '/charges', {
    charge_type: 'card_onetime',
    amount: 100,
    currency: 'USD',
    events_url: harness.eventsUrl,
    instrument_params: { captured_on_creation: false },
    ...body,
  })
  expect(answer.status).toBe(201)
  return answer.body as { id: string }
}

async function authorizedInstrument(body: Record<string, unknown> = {}) {
  const created = await charge(body)
  const instrument = await harness.api('POST', '/instruments', testCard(created.id))
  expect(instrument.body.status).toBe('authorized')
  return { chargeId: created.id, instrumentId: instrument.body.id as string }
}

function expectConflict(answer: ApiAnswer, code: string) {
  expect(answer.status).toBe(409)
  expect(answer.body.failure_code).toBe(code)
  expect(answer.body.message).toEqual(expect.any(String))
}

const capture = (instrument: string, amount: number, currency = 'USD') =>
  harness.api('POST', '/payments', { instrument, amount, currency })

describe('instrument rules', () => {
  it("refuses an instrument for a failed charge, with the charge's own failure", async () => {
    const failed = await harness.api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: encodeTestAmount('02.00.0001', 'charge'),
      currency: 'USD',
      events_url: harness.eventsUrl,
    })
    expect(failed.status).toBe(402)
    const answer = await harness.api('POST', '/instruments', testCard(failed.body.metadata.charge))
    expectConflict(answer, '02.00.0001')
    expect(answer.body.failure_description).toBe('Failure')
  })

  it('refuses a second instrument while one is authorized (03.04.0000)', async () => {
    const { chargeId } = await authorizedInstrument()
    expectConflict(await harness.api('POST', '/instruments', testCard(chargeId)), '03.04.0000')
  })

  it('allows a new instrument after a declined one (a failed step can be retried)', async () => {
    const created = await charge({ channels: ['card_onetime_simulated_acquirer'] })
    const declined = await harness.api(
      'POST',
      '/instruments',
      testCard(created.id, { number: '4000000000000002' }),
    )
    expect(declined.status).toBe(402)
    expect(declined.body.failure_code).toBe('03.03.0000')
    const retried = await harness.api('POST', '/instruments', testCard(created.id))
    expect(retried.status).toBe(201)
    expect(retried.body.status).toBe('authorized')
  })

  it('answers 404 for an unknown charge', async () => {
    const answer = await harness.api('POST', '/instruments', testCard('ch_unknown'))
    expect(answer.status).toBe(404)
    expect(answer.body.message).toContain('ch_unknown')
  })
})

describe('a pending (3DS) instrument', () => {
  it('cannot be captured or reversed (05.04.0002) nor doubled (03.04.0000)', async () => {
    const created = await charge({
      channels: ['card_onetime_simulated_acquirer'],
      instrument_params: { enable3ds: true, captured_on_creation: false },
    })
    const instrument = await harness.api('POST', '/instruments', testCard(created.id))
    expect(instrument.body.status).toBe('pending')
    expectConflict(await capture(instrument.body.id, 10), '05.04.0002')
    expectConflict(
      await harness.api('POST', `/instruments/${instrument.body.id}/reversal`),
      '05.04.0002',
    )
    expectConflict(await harness.api('POST', '/instruments', testCard(created.id)), '03.04.0000')
  })
})

describe('capture rules', () => {
  it('refuses to capture an invalid instrument (05.04.0002)', async () => {
    const created = await charge({ amount: encodeTestAmount('03.03.0000', 'instrument') })
    const declined = await harness.api('POST', '/instruments', testCard(created.id))
    expectConflict(await capture(declined.body.metadata.instrument, 1), '05.04.0002')
  })

  it('refuses more than the authorization (01.02.0000) and a full one twice (05.04.0001)', async () => {
    const { instrumentId } = await authorizedInstrument()
    expectConflict(await capture(instrumentId, 100.01), '01.02.0000')
    expect((await capture(instrumentId, 100)).status).toBe(201)
    expectConflict(await capture(instrumentId, 1), '05.04.0001')
  })

  it('refuses another currency than the instrument’s (400)', async () => {
    const { instrumentId } = await authorizedInstrument()
    const answer = await capture(instrumentId, 10, 'EUR')
    expect(answer.status).toBe(400)
    expect(answer.body.parameters.currency).toBeDefined()
  })

  it('lets exactly as many concurrent captures through as the authorization covers', async () => {
    const { instrumentId } = await authorizedInstrument()
    const answers = await Promise.all(Array.from({ length: 6 }, () => capture(instrumentId, 30)))
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409])
    const instrument = await harness.api('GET', `/instruments/${instrumentId}`)
    expect(instrument.body.captured_amount).toBe(90)
  })
})

describe('reversal rules', () => {
  it('refuses a reversal after capture (05.04.0001)', async () => {
    const { instrumentId } = await authorizedInstrument()
    await capture(instrumentId, 10)
    expectConflict(await harness.api('POST', `/instruments/${instrumentId}/reversal`), '05.04.0001')
  })

  it('voids the full amount only (01.02.0000) and only once (05.04.0002)', async () => {
    const { instrumentId } = await authorizedInstrument()
    const path = `/instruments/${instrumentId}/reversal`
    expectConflict(await harness.api('POST', path, { amount: 50 }), '01.02.0000')
    expect((await harness.api('POST', path, { amount: 100 })).status).toBe(201)
    expectConflict(await harness.api('POST', path), '05.04.0002')
    expectConflict(await capture(instrumentId, 1), '05.04.0002')
  })
})

describe('refund rules', () => {
  it('refuses refunds over the captured amount (01.02.0000)', async () => {
    const { instrumentId } = await authorizedInstrument()
    const payment = await capture(instrumentId, 60)
    const path = `/payments/${payment.body.id}/refund`
    expectConflict(await harness.api('POST', path, { amount: 60.01 }), '01.02.0000')
    expect((await harness.api('POST', path, { amount: 59.99 })).status).toBe(201)
    expectConflict(await harness.api('POST', path, { amount: 0.02 }), '01.02.0000')
    expect((await harness.api('POST', path, { amount: 0.01 })).status).toBe(201)
  })

  it('refuses to refund a failed payment (05.04.0001)', async () => {
    const amount = encodeTestAmount('02.03.0000', 'payment')
    const { instrumentId } = await authorizedInstrument({ amount })
    const failed = await capture(instrumentId, amount)
    expect(failed.status).toBe(402)
    const answer = await harness.api('POST', `/payments/${failed.body.metadata.payment}/refund`, {
      amount: 1,
    })
    expectConflict(answer, '05.04.0001')
  })

  it('refuses to refund a payment still pending at the acquirer (05.04.0001)', async () => {
    const { instrumentId } = await authorizedInstrument({
      channels: ['card_onetime_simulated_acquirer'],
    })
    const pending = await capture(instrumentId, 10)
    expect(pending.body.status).toBe('pending')
    const answer = await harness.api('POST', `/payments/${pending.body.id}/refund`, { amount: 1 })
    expectConflict(answer, '05.04.0001')
  })

  it('checks the amount against the payment currency (400)', async () => {
    const { instrumentId } = await authorizedInstrument({ currency: 'JPY' })
    const payment = await capture(instrumentId, 100, 'JPY')
    const answer = await harness.api('POST', `/payments/${payment.body.id}/refund`, { amount: 1.5 })
    expect(answer.status).toBe(400)
    expect(answer.body.parameters.amount).toBeDefined()
  })
})

describe('dispute rules', () => {
  it('disputes only succeeded payments (05.04.0001), within what is left (01.02.0000)', async () => {
    const amount = encodeTestAmount('02.03.0000', 'payment')
    const { instrumentId } = await authorizedInstrument({ amount })
    const failed = await capture(instrumentId, amount)
    expectConflict(
      await harness.api('POST', `/test/payments/${failed.body.metadata.payment}/dispute`),
      '05.04.0001',
    )

    const other = await authorizedInstrument()
    const payment = await capture(other.instrumentId, 40)
    const path = `/test/payments/${payment.body.id}/dispute`
    expect((await harness.api('POST', path, { amount: 25 })).status).toBe(201)
    expectConflict(await harness.api('POST', path, { amount: 15.01 }), '01.02.0000')
    expect((await harness.api('POST', path)).body.amount).toBe(15)
    expectConflict(await harness.api('POST', path), '01.02.0000')
  })

  it('answers 404 for unknown payments and disputes', async () => {
    expect((await harness.api('POST', '/test/payments/pa_nope/dispute')).status).toBe(404)
    const settle = await harness.api('POST', '/test/disputes/dp_nope/settle', { outcome: 'won' })
    expect(settle.status).toBe(404)
  })
})
