import { chargeSchema } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../src/testing/index'

let harness: TestSandbox

beforeAll(async () => {
  harness = await startTestSandbox()
})
afterAll(() => harness.close())

const body = (overrides: Record<string, unknown> = {}) => ({
  charge_type: 'card_onetime',
  amount: 10,
  currency: 'USD',
  events_url: harness.eventsUrl,
  ...overrides,
})

describe('POST /v2/charges', () => {
  it('answers 201 with every documented field, typed as documented', async () => {
    const answer = await harness.api(
      'POST',
      '/charges',
      body({ redirect_url: 'https://shop.example/back' }),
      {
        'user-agent': 'chargekit-client/1.4.2 node/20',
      },
    )
    expect(answer.status).toBe(201)
    const charge = chargeSchema.parse(answer.body)
    expect(Object.keys(answer.body).sort()).toEqual(
      [
        'id',
        'charge_type',
        'charge_type_label',
        'amount',
        'currency',
        'events_url',
        'redirect_url',
        'metadata',
        'instrument_params',
        'channels',
        'confirmed',
        'external_ids',
        'external',
        'failure_code',
        'failure_description',
        'created_at',
        'updated_at',
        'expires_at',
        'request_log',
        'description',
      ].sort(),
    )
    expect(charge.id).toMatch(/^ch_[0-9a-f]{32}$/)
    expect(charge.request_log).toEqual({
      ip_address: '127.0.0.1',
      country: 'ZZ',
      user_agent: 'chargekit-client/1.4.2 node/20',
      library_version: '1.4.2',
    })
    expect(charge).toMatchObject({
      metadata: {},
      external_ids: null,
      external: false,
      expires_at: null,
    })
  })

  it('uses the account default channel per charge type, or the channels asked for', async () => {
    const recurring = await harness.api('POST', '/charges', body({ charge_type: 'card_recurring' }))
    expect(recurring.body.channels.map((channel: { label: string }) => channel.label)).toEqual([
      'card_recurring_no_processor',
    ])
    const both = await harness.api(
      'POST',
      '/charges',
      body({ channels: ['card_onetime_simulated_acquirer', 'card_onetime_no_processor'] }),
    )
    expect(both.body.channels.map((channel: { processor: string }) => channel.processor)).toEqual([
      'simulated_acquirer',
      'no_processor',
    ])
  })

  it.each([
    ['http://127.0.0.1:9/hook', 201],
    ['http://localhost:9/hook', 201],
    ['http://[::1]:9/hook', 201],
    ['https://merchant.example/hook', 201],
    ['http://merchant.example/hook', 400],
    ['ftp://127.0.0.1/hook', 400],
  ])('accepts events_url %s only when https or loopback (%i)', async (eventsUrl, status) => {
    const answer = await harness.api('POST', '/charges', body({ events_url: eventsUrl }))
    expect(answer.status).toBe(status)
    if (status === 400) expect(answer.body.parameters.events_url).toBeDefined()
  })

  it('keeps metadata as sent', async () => {
    const metadata = { order_id: 'A-9', items: 3, gift: false, note: null }
    const answer = await harness.api('POST', '/charges', body({ metadata }))
    expect(answer.body.metadata).toEqual(metadata)
  })
})

describe('GET /v2/charges', () => {
  it('reads one charge and answers 404 for unknown ids', async () => {
    const created = await harness.api('POST', '/charges', body())
    expect((await harness.api('GET', `/charges/${created.body.id}`)).body).toEqual(created.body)
    const missing = await harness.api('GET', '/charges/ch_missing')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ message: 'No charge with id "ch_missing" in this account' })
  })

  it('lists newest first over several pages', async () => {
    const ids: string[] = []
    for (let index = 0; index < 7; index++) {
      ids.push((await harness.api('POST', '/charges', body({ metadata: { index } }))).body.id)
    }
    const pages = []
    for (const page of [1, 2, 3]) {
      pages.push((await harness.api('GET', `/charges?per_page=3&page=${page}`)).body)
    }
    const listed = pages.flatMap((page) =>
      page.collection.map((charge: { id: string }) => charge.id),
    )
    expect(listed.slice(0, 7)).toEqual([...ids].reverse())
    expect(pages[0].pagination).toMatchObject({ page: 1, per_page: 3 })
    expect(pages[0].pagination.total).toBeGreaterThanOrEqual(7)
  })
})
