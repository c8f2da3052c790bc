import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  ChargeSearchAnswer,
  OverviewAnswer,
  ReceiverAnswer,
  ReceiversAnswer,
} from '../src/dashboard/browser/data-shapes'
import { eventually } from '../src/testing/index'
import {
  type Account,
  accountA,
  accountB,
  callApi,
  card,
  type DashboardWorld,
  eventsOf,
  runPaidFlow,
  startDashboardWorld,
} from './dashboard-fixtures'

// The dashboard's own reads (`/dashboard/data/…`) over HTTP, against a real sandbox: the charge
// status each lifecycle reaches, the charges filters, the overview's totals, the deliveries per
// events URL, and that one account's session never reads another's.

let world: DashboardWorld
const cookies = new Map<string, string>()

beforeAll(async () => {
  world = await startDashboardWorld()
  for (const account of [accountA, accountB]) {
    const response = await fetch(`${world.sandbox.url}/dashboard/session`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ account_id: account.id, key: account.key }),
    })
    const cookie = response.headers
      .getSetCookie()
      .find((value) => value.startsWith('chargekit_dashboard_session='))
    cookies.set(account.id, cookie?.split(';')[0] ?? '')
  }
}, 30_000)
afterAll(() => world?.close())

async function read<T>(account: Account | undefined, path: string, status = 200): Promise<T> {
  const response = await fetch(`${world.sandbox.url}/dashboard/data${path}`, {
    headers: account ? { cookie: cookies.get(account.id) ?? '' } : {},
  })
  expect(response.headers.get('cache-control')).toBe('no-store')
  const body = (await response.json()) as T
  expect(response.status, JSON.stringify(body)).toBe(status)
  return body
}

const charges = (account: Account, query = '') =>
  read<ChargeSearchAnswer>(account, `/charges?per_page=100&${query}`)

/** A card charge of account A with `options` merged in, and its instrument when `withCard`. */
async function cardCharge(options: Record<string, unknown>, withCard = true) {
  // A failed charge step answers 402, naming the charge in its metadata.
  const answer = await callApi<{ id?: string; metadata?: { charge: string } }>(
    world,
    accountA,
    'POST',
    '/charges',
    {
      charge_type: 'card_onetime',
      amount: 40,
      currency: 'EUR',
      events_url: `${world.receiver.url}/events`,
      ...options,
    },
  )
  const chargeId = answer.id ?? answer.metadata?.charge ?? ''
  const instrument = withCard
    ? await callApi<{ id: string; last_payment?: { id: string } }>(
        world,
        accountA,
        'POST',
        '/instruments',
        card(chargeId),
      )
    : undefined
  return { chargeId, instrument }
}

describe('the charges list', () => {
  const expected = new Map<string, string>()

  beforeAll(async () => {
    const tag = (label: string) => ({ metadata: { case: label } })
    expected.set((await cardCharge(tag('open'), false)).chargeId, 'open')
    expected.set(
      (await cardCharge({ ...tag('unconfirmed'), confirmed: false }, false)).chargeId,
      'unconfirmed',
    )
    expected.set(
      (
        await cardCharge(
          { ...tag('failed'), amount: 1020000.1, channels: ['card_onetime_no_processor'] },
          false,
        )
      ).chargeId,
      'failed',
    )
    expected.set(
      (
        await cardCharge({
          ...tag('declined'),
          amount: 3030000.2,
          channels: ['card_onetime_no_processor'],
        })
      ).chargeId,
      'declined',
    )
    expected.set(
      (
        await cardCharge({
          ...tag('pending'),
          channels: ['card_onetime_simulated_acquirer'],
          instrument_params: { enable3ds: true },
        })
      ).chargeId,
      'pending',
    )
    const authorized = await cardCharge({
      ...tag('authorized'),
      instrument_params: { captured_on_creation: false },
    })
    expected.set(authorized.chargeId, 'authorized')
    const canceled = await cardCharge({
      ...tag('canceled'),
      instrument_params: { captured_on_creation: false },
    })
    await callApi(world, accountA, 'POST', `/instruments/${canceled.instrument?.id}/reversal`, {})
    expected.set(canceled.chargeId, 'canceled')
    const paid = await cardCharge({ ...tag('paid'), amount: 25.5 })
    expected.set(paid.chargeId, 'paid')
    const refunded = await cardCharge(tag('refunded'))
    const refundedPayment = refunded.instrument?.last_payment?.id
    await callApi(world, accountA, 'POST', `/payments/${refundedPayment}/refund`, { amount: 40 })
    expected.set(refunded.chargeId, 'refunded')
    const partly = await runPaidFlow(world, accountA, 'ord_data_partly')
    expected.set(partly.chargeId, 'partially_refunded')
    const disputed = await cardCharge(tag('disputed'))
    const disputedPayment = disputed.instrument?.last_payment?.id
    await callApi(world, accountA, 'POST', `/test/payments/${disputedPayment}/dispute`, {})
    expected.set(disputed.chargeId, 'disputed')
  })

  it('derives each charge’s status from its objects', async () => {
    const { collection } = await charges(accountA)
    const statuses = new Map(collection.map((row) => [row.id, row.status]))
    for (const [chargeId, status] of expected) expect(statuses.get(chargeId), status).toBe(status)
    const declined = collection.find((row) => row.status === 'declined')
    expect(declined?.failure).toEqual({ code: '03.03.0000', description: 'Card is Declined' })
    const partly = collection.find((row) => row.status === 'partially_refunded')
    expect(partly).toMatchObject({ captured_amount: 25.5, refunded_amount: 5.25 })
    expect(partly?.card).toEqual({ brand: 'VISA', last_4_digits: '4242' })
  })

  it('filters by status, with the total of every match and pages of them', async () => {
    for (const status of new Set(expected.values())) {
      const answer = await charges(accountA, `status=${status}`)
      const wanted = [...expected].filter(([, each]) => each === status).map(([id]) => id)
      expect(answer.collection.map((row) => row.id).sort(), status).toEqual(wanted.sort())
      expect(answer.pagination.total).toBe(wanted.length)
    }
    const page = await read<ChargeSearchAnswer>(accountA, '/charges?per_page=2&page=2')
    expect(page.collection).toHaveLength(2)
    expect(page.pagination).toEqual({ page: 2, per_page: 2, total: expected.size })
  })

  it('filters by type, currency, amount (as exact decimals) and metadata', async () => {
    const between = await charges(accountA, 'amount_gte=25.50&amount_lte=25.5')
    expect(between.collection.map((row) => row.amount)).toEqual([25.5, 25.5])
    const big = await charges(accountA, 'amount_gte=1000000')
    expect(new Set(big.collection.map((row) => row.status))).toEqual(
      new Set(['failed', 'declined']),
    )
    const tagged = await charges(accountA, 'metadata[case]=refunded')
    expect(tagged.collection.map((row) => row.status)).toEqual(['refunded'])
    expect(tagged.filters).toEqual({ metadata: { case: 'refunded' } })
    expect((await charges(accountA, 'charge_type=mbway')).collection).toEqual([])
    expect((await charges(accountA, 'currency=USD')).collection).toEqual([])
    expect(
      (await charges(accountA, 'charge_type=card_onetime&currency=EUR')).pagination.total,
    ).toBe(expected.size)
  })

  it('refuses a bad filter with 400 naming it and what it expects', async () => {
    const answer = await read<{ parameters: Record<string, string[]> }>(
      accountA,
      '/charges?status=lost&amount_gte=12,50&colour=red',
      400,
    )
    expect(Object.keys(answer.parameters).sort()).toEqual(['amount_gte', 'colour', 'status'])
    expect(answer.parameters.amount_gte).toEqual(['Expected an amount such as 25 or 25.50'])
    expect(answer.parameters.colour?.[0]).toContain('Unknown query parameter')
  })

  it('shows another account none of these charges, and nobody without a session', async () => {
    expect((await charges(accountB)).collection).toEqual([])
    await read(undefined, '/charges', 401)
    await read(undefined, '/overview', 401)
    await read(undefined, '/deliveries', 401)
  })
})

describe('the overview', () => {
  it('counts charges, sums captured volume exactly and groups failures by code', async () => {
    const overview = await read<OverviewAnswer>(accountA, '/overview?range=1h')
    expect(overview.buckets).toHaveLength(60)
    expect(overview.bucket_ms).toBe(60_000)
    const events = await callApi<{ collection: { payment: { amount: number } }[] }>(
      world,
      accountA,
      'GET',
      '/events?type=payment.success&per_page=100',
    )
    const created = await callApi<{ pagination: { total: number } }>(
      world,
      accountA,
      'GET',
      '/events?type=charge.created&per_page=1',
    )
    expect(overview.charges.total).toBe(created.pagination.total)
    expect(overview.charges.counts.reduce((sum, count) => sum + count, 0)).toBe(
      overview.charges.total,
    )
    const [eur] = overview.volume
    expect(eur?.currency).toBe('EUR')
    expect(eur?.count).toBe(events.collection.length)
    // Summed in cents: 0.1 + 0.2 style drift would show here.
    const cents = events.collection.reduce(
      (sum, { payment }) => sum + Math.round(payment.amount * 100),
      0,
    )
    expect(eur?.total).toBe(cents / 100)
    expect(overview.declines).toEqual(
      [
        { code: '01.02.0000', count: 1, steps: { charge: 1 } },
        { code: '03.03.0000', count: 1, steps: { instrument: 1 } },
      ].sort((a, b) => a.code.localeCompare(b.code)),
    )
    expect(overview.truncated).toBe(false)
    const empty = await read<OverviewAnswer>(accountB, '/overview?range=30d')
    expect(empty.buckets).toHaveLength(30)
    expect(empty.charges.total).toBe(0)
    await read(accountA, '/overview?range=2h', 400)
  })
})

describe('deliveries by events URL', () => {
  it('lists each events URL with its attempts, and one URL’s failures with their reasons', async () => {
    const failing = await runPaidFlow(world, accountA, 'ord_data_failing', world.failingReceiver)
    const eventCount = (await eventsOf(world, accountA, failing.chargeId)).length
    const failingUrl = `${world.failingReceiver.url}/events`
    await eventually(
      async () => {
        const detail = await read<ReceiverAnswer>(
          accountA,
          `/deliveries/endpoint?${new URLSearchParams({ url: failingUrl })}`,
        )
        expect(detail.attempts).toBeGreaterThanOrEqual(eventCount)
      },
      { what: 'a first attempt of every event of the failing charge' },
    )
    const { collection } = await read<ReceiversAnswer>(accountA, '/deliveries')
    const healthy = collection.find((each) => each.url === `${world.receiver.url}/events`)
    expect(healthy?.success_rate).toBe(1)
    const detail = await read<ReceiverAnswer>(
      accountA,
      `/deliveries/endpoint?${new URLSearchParams({ url: failingUrl, range: '24h' })}`,
    )
    expect(detail.succeeded).toBe(0)
    expect(detail.series).toHaveLength(48)
    expect(detail.series.reduce((sum, bucket) => sum + bucket.attempts, 0)).toBe(detail.attempts)
    expect(detail.failures.length).toBe(Math.min(20, detail.attempts))
    expect(detail.failures[0]).toMatchObject({ result_status: 500, failure: null })
    expect(detail.failures.map((row) => row.charge_id)).toContain(failing.chargeId)

    // Another account sees neither the list entry nor the page.
    const other = await read<ReceiversAnswer>(accountB, '/deliveries')
    expect(other.collection).toEqual([])
    await read(accountB, `/deliveries/endpoint?${new URLSearchParams({ url: failingUrl })}`, 404)
    await read(accountA, '/deliveries/endpoint', 400)
  })
})
