import type { Charge } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCliArguments } from '../src/cli-options'
import {
  createMemoryStore,
  type InstrumentRecord,
  type PaymentRecord,
  SandboxError,
  type StoredEvent,
  startSandbox,
} from '../src/index'
import { startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'

const other = { id: 'acct_other', key: 'sk_other_0123456789' }
let harness: TestSandbox

beforeAll(async () => {
  harness = await startTestSandbox({
    retainCharges: 2,
    accounts: [{ id: 'acct_sandbox', key: 'sk_sandbox' }, other],
  })
})
afterAll(() => harness.close())

async function created(path: string, body: unknown = {}): Promise<{ id: string }> {
  const answer = await harness.api('POST', path, body)
  expect(answer.status, JSON.stringify(answer.body)).toBe(201)
  return answer.body
}

async function total(path: string): Promise<number> {
  const answer = await harness.api('GET', path)
  expect(answer.status).toBe(200)
  return answer.body.pagination.total
}

async function eventIdsOf(chargeId: string): Promise<string[]> {
  const answer = await harness.api('GET', `/events?charge=${chargeId}&per_page=100`)
  return (answer.body.collection as { id: string }[]).map((event) => event.id)
}

function newCharge(metadata: Record<string, string> = {}) {
  return created('/charges', {
    charge_type: 'card_onetime',
    amount: 100,
    currency: 'EUR',
    events_url: harness.eventsUrl,
    metadata,
    instrument_params: { captured_on_creation: false },
  })
}

describe('retainCharges', () => {
  it('drops the oldest charge with all of its objects and events, and keeps the newest', async () => {
    // The oldest charge holds one object of every kind a charge can own.
    const oldest = await newCharge({ order: 'oldest' })
    const instrument = await created('/instruments', testCard(oldest.id))
    const payment = await created('/payments', {
      instrument: instrument.id,
      amount: 100,
      currency: 'EUR',
    })
    const refund = await created(`/payments/${payment.id}/refund`, { amount: 10 })
    const dispute = await created(`/test/payments/${payment.id}/dispute`, { amount: 20 })
    const settlement = await created('/test/settlements')
    const oldestEvents = await eventIdsOf(oldest.id)
    expect(oldestEvents.length).toBeGreaterThanOrEqual(8)

    const kept = await newCharge({ order: 'kept' })
    const keptInstrument = await created('/instruments', testCard(kept.id))
    const reversal = await created(`/instruments/${keptInstrument.id}/reversal`)
    // Two charges are the bound: nothing is dropped yet.
    expect((await harness.api('GET', `/charges/${oldest.id}`)).status).toBe(200)

    // The bound counts the charges of every account.
    const newest = await harness.as(other)('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 5,
      currency: 'EUR',
      events_url: harness.eventsUrl,
    })
    expect(newest.status).toBe(201)

    for (const path of [
      `/charges/${oldest.id}`,
      `/instruments/${instrument.id}`,
      `/payments/${payment.id}`,
      `/refunds/${refund.id}`,
      `/disputes/${dispute.id}`,
      ...oldestEvents.map((id) => `/events/${id}`),
    ]) {
      expect((await harness.api('GET', path)).status, path).toBe(404)
    }
    expect(await total(`/events?charge=${oldest.id}`)).toBe(0)
    expect(await total(`/events?object_id=${payment.id}`)).toBe(0)
    expect(await total('/events?metadata[order]=oldest')).toBe(0)
    expect(await total('/events?type=payment.success')).toBe(0)
    expect(await total('/payments')).toBe(0)
    // A new step on a dropped object is a 404 too, not a half-restored transaction.
    expect(
      (await harness.api('POST', `/payments/${payment.id}/refund`, { amount: 1 })).status,
    ).toBe(404)

    const charges = await harness.api('GET', '/charges')
    expect(charges.body.pagination.total).toBe(1)
    expect(charges.body.collection.map((charge: Charge) => charge.id)).toEqual([kept.id])
    const keptEvents = await eventIdsOf(kept.id)
    expect(await total('/events')).toBe(keptEvents.length)
    expect((await harness.api('GET', `/reversals/${reversal.id}`)).status).toBe(200)
    expect((await harness.api('GET', `/events/${keptEvents[0]}`)).status).toBe(200)
    expect((await harness.as(other)('GET', `/charges/${newest.body.id}`)).status).toBe(200)

    // Settlements are kept by their own count: this one still names the dropped payment.
    const kept1 = await harness.api('GET', `/settlements/${settlement.id}`)
    expect(kept1.body.payments).toEqual([payment.id])
    await created('/test/settlements')
    await created('/test/settlements')
    expect((await harness.api('GET', `/settlements/${settlement.id}`)).status).toBe(404)
  })

  it('keeps the newest 5,000 charges by default', async () => {
    const store = createMemoryStore()
    const template = (await harness.api('GET', `/charges/${(await newCharge()).id}`)).body as Charge
    for (let index = 0; index <= 5_000; index++) {
      await store.putObject('acct_sandbox', 'charge', { ...template, id: `ch_default_${index}` })
    }
    expect(await store.getObject('acct_sandbox', 'charge', 'ch_default_0')).toBeUndefined()
    expect(await store.getObject('acct_sandbox', 'charge', 'ch_default_1')).toBeDefined()
    expect(await store.getObject('acct_sandbox', 'charge', 'ch_default_5000')).toBeDefined()
  })

  it('refuses a bound that is not a whole number >= 1, saying what is expected', async () => {
    for (const retainCharges of [0, 1.5, -3, Number.NaN]) {
      await expect(startSandbox({ port: 0, retainCharges })).rejects.toThrow(SandboxError)
      expect(() => createMemoryStore({ retainCharges })).toThrow(
        `retainCharges must be a whole number of charges >= 1, such as 5000; got ${retainCharges}`,
      )
    }
  })

  it('is read from --retain-charges', () => {
    expect(parseCliArguments(['--retain-charges', '1000'])).toMatchObject({
      options: { retainCharges: 1000 },
    })
    expect(parseCliArguments([])).not.toHaveProperty('options.retainCharges')
    for (const text of ['0', 'many', '2.5']) {
      expect(() => parseCliArguments(['--retain-charges', text])).toThrow(
        `--retain-charges expects a whole number from 1 to ${Number.MAX_SAFE_INTEGER}; got "${text}"`,
      )
    }
  })
})

describe('the memory store past its bound', () => {
  const charge = (id: string) => ({ id, events_url: '' }) as Charge

  it('does not store late writes of a dropped charge, which would never be dropped again', async () => {
    const store = createMemoryStore({ retainCharges: 1 })
    await store.putObject('acct', 'charge', charge('ch_old'))
    await store.putObject('acct', 'instrument', {
      id: 'in_old',
      charge: { id: 'ch_old' },
    } as InstrumentRecord)
    await store.putObject('acct', 'charge', charge('ch_new'))

    // A pending processor answer for the dropped charge arrives now.
    await store.putObject('acct', 'payment', {
      id: 'pa_late',
      charge: { id: 'ch_old' },
    } as PaymentRecord)
    await store.addEvent('acct', {
      id: 'ev_late',
      object_id: 'pa_late',
      charge: charge('ch_old'),
    } as StoredEvent)
    await store.putChallenge({
      accountId: 'acct',
      instrumentId: 'in_old',
      token: 't',
      action: 'approval_page',
    })

    expect(await store.getObject('acct', 'payment', 'pa_late')).toBeUndefined()
    expect(await store.getObject('acct', 'instrument', 'in_old')).toBeUndefined()
    expect(await store.getEvent('acct', 'ev_late')).toBeUndefined()
    expect(await store.getChallenge('in_old')).toBeUndefined()
    expect(await store.updateEvent('acct', 'ev_late', { result_status: 204 })).toBeUndefined()
    const page = await store.listObjects('acct', 'charge', {}, { offset: 0, limit: 10 })
    expect(page).toEqual({ items: [charge('ch_new')], total: 1 })
  })

  it('keeps lists whole and in order while dropping many charges', async () => {
    const store = createMemoryStore({ retainCharges: 3 })
    for (let index = 0; index < 50; index++) {
      const id = `ch_${index}`
      await store.putObject('acct', 'charge', charge(id))
      await store.addEvent('acct', {
        id: `ev_${index}`,
        object_id: id,
        charge: charge(id),
      } as StoredEvent)
    }
    const charges = await store.listObjects('acct', 'charge', {}, { offset: 1, limit: 5 })
    expect(charges).toEqual({ items: [charge('ch_48'), charge('ch_47')], total: 3 })
    const events = await store.listEvents('acct', {}, { offset: 0, limit: 5 })
    expect(events.items.map((event) => event.id)).toEqual(['ev_49', 'ev_48', 'ev_47'])
    expect(events.total).toBe(3)
  })
})

describe('request bounds', () => {
  const charge = {
    charge_type: 'card_onetime',
    amount: 10,
    currency: 'EUR',
    events_url: 'https://shop.example/events',
  }

  it.each([
    [
      'a 1 MB metadata value',
      { note: 'x'.repeat(1_000_000) },
      'metadata.note',
      'Expected at most 500 characters',
    ],
    [
      '51 metadata keys',
      Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`key_${index}`, index])),
      'metadata',
      'Expected at most 50 keys',
    ],
    [
      'a 41-character metadata key',
      { ['k'.repeat(41)]: 'value' },
      `metadata.${'k'.repeat(41)}`,
      'Expected a key of at most 40 characters',
    ],
  ])(
    'refuses %s with 400 naming the field and the limit, storing nothing',
    async (_, metadata, field, message) => {
      const before = await total('/charges')
      for (const headers of [{}, { 'idempotency-key': `bounds-${field}` }]) {
        const answer = await harness.api('POST', '/charges', { ...charge, metadata }, headers)
        expect(answer.status).toBe(400)
        expect(answer.body.failure_code).toBe('01.01.0000')
        expect(answer.body.parameters).toEqual({ [field]: [message] })
      }
      expect(await total('/charges')).toBe(before)
    },
  )

  it('accepts metadata at the limits, and refuses over-long free texts', async () => {
    const metadata = Object.fromEntries(
      Array.from({ length: 50 }, (_, index) => [`${index}`.padEnd(40, 'k'), 'v'.repeat(500)]),
    )
    const accepted = await harness.api('POST', '/charges', { ...charge, metadata })
    expect(accepted.status).toBe(201)
    expect(accepted.body.metadata).toEqual(metadata)

    const long = await harness.api('POST', '/charges', {
      ...charge,
      description: 'd'.repeat(1001),
      events_url: `https://shop.example/${'p'.repeat(2048)}`,
    })
    expect(long.status).toBe(400)
    expect(long.body.parameters).toMatchObject({
      description: ['Expected at most 1000 characters'],
      events_url: expect.arrayContaining(['Expected at most 2048 characters']),
    })
  })
})
