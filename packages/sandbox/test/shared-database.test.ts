import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'
import { gatedProcessor } from './gated-processor'
import { type FreshState, freshDatabase } from './store-under-test'

/**
 * Two sandboxes on one PostgreSQL database, each with its own connection pools, as two
 * processes would be: they serve one state, and the money rules hold across them.
 */
const onPostgres = inject('postgresUrl') !== undefined
const gated = gatedProcessor()
let database: FreshState | undefined
let first: TestSandbox
let second: TestSandbox

beforeAll(async () => {
  if (!onPostgres) return
  database = await freshDatabase()
  const options = { ...database.options, deliverEvents: false, processors: [gated.processor] }
  first = await startTestSandbox(options)
  second = await startTestSandbox(options)
})
afterAll(async () => {
  gated.release()
  await first?.close()
  await second?.close()
  await database?.remove()
})

describe.skipIf(!onPostgres)('two sandboxes sharing a PostgreSQL database', () => {
  it('read what the other wrote, and replay the other one’s idempotent answers', async () => {
    const request = {
      charge_type: 'card_onetime',
      amount: 42.5,
      currency: 'EUR',
      events_url: first.eventsUrl,
    }
    const created = await first.api('POST', '/charges', request, { 'idempotency-key': 'shared-1' })
    expect(created.status).toBe(201)
    const read = await second.api('GET', `/charges/${created.body.id}`)
    expect(read.status).toBe(200)
    expect(read.body).toEqual(created.body)

    const replayed = await second.api('POST', '/charges', request, {
      'idempotency-key': 'shared-1',
    })
    expect(replayed.status).toBe(201)
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    expect(replayed.body).toEqual(created.body)
    const listed = await second.api('GET', '/charges?per_page=100')
    expect(
      listed.body.collection.filter((charge: { amount: number }) => charge.amount === 42.5),
    ).toHaveLength(1)
  })

  it('answer 409 in flight in one while the other runs the first request with that key', async () => {
    const charge = await first.api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 20,
      currency: 'EUR',
      events_url: first.eventsUrl,
      channels: ['card_onetime_gated'],
    })
    const key = { 'idempotency-key': 'shared-in-flight' }
    const running = first.api('POST', '/instruments', testCard(charge.body.id), key)
    await gated.waiting()
    const duplicate = await second.api('POST', '/instruments', testCard(charge.body.id), key)
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.failure_code).toBe('02.04.0000')
    expect(duplicate.headers.get('retry-after')).toBe('1')
    gated.release()
    const done = await running
    expect(done.status).toBe(201)
    const replayed = await second.api('POST', '/instruments', testCard(charge.body.id), key)
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    expect(replayed.body).toEqual(done.body)
  })

  it('never refund more than was captured, whichever sandbox each refund reaches', async () => {
    const charge = await first.api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 100,
      currency: 'EUR',
      events_url: first.eventsUrl,
    })
    const instrument = await second.api('POST', '/instruments', testCard(charge.body.id))
    expect(instrument.body).toMatchObject({ status: 'authorized', captured_amount: 100 })
    const payments = await first.api('GET', `/payments?charge=${charge.body.id}`)
    const payment = payments.body.collection[0].id

    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        (index % 2 === 0 ? first : second).api('POST', `/payments/${payment}/refund`, {
          amount: 10,
        }),
      ),
    )
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses.filter((status) => status === 201)).toHaveLength(10)
    expect(statuses.filter((status) => status === 409)).toHaveLength(6)
    // Both sandboxes see the same ten refunds on the payment.
    const refunded = answers
      .filter((answer) => answer.status === 201)
      .map((answer) => answer.body.id)
    for (const sandbox of [first, second]) {
      const stored = await sandbox.api('GET', `/payments/${payment}`)
      expect(stored.body.refunds.map((refund: { id: string }) => refund.id).sort()).toEqual(
        refunded.sort(),
      )
    }
  })
})
