import { settlementSchema, toMinorUnits } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, type SandboxStore } from '../src/index'
import { startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'

/**
 * The in-memory store, answering every call a turn of the event loop later, as a database
 * would: concurrent requests interleave between any two store calls.
 */
function asynchronousStore(): SandboxStore {
  const memory = createMemoryStore()
  return new Proxy(memory, {
    get(target, name, receiver) {
      const member = Reflect.get(target, name, receiver)
      if (typeof member !== 'function') return member
      return (...args: unknown[]) =>
        new Promise((resolve) => setImmediate(resolve)).then(() => member.apply(target, args))
    },
  })
}

let harness: TestSandbox

beforeAll(async () => {
  harness = await startTestSandbox({ store: asynchronousStore(), deliverEvents: false })
})
afterAll(() => harness.close())

describe('two settlements at once', () => {
  it('settle each payment and refund exactly once, with one instrument.settled each', async () => {
    const api = harness.api
    const payments: string[] = []
    const refunds: string[] = []
    const instruments: string[] = []
    for (let index = 0; index < 4; index++) {
      const charge = await api('POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 10,
        currency: 'USD',
        events_url: harness.eventsUrl,
      })
      const instrument = await api('POST', '/instruments', testCard(charge.body.id))
      instruments.push(instrument.body.id)
      const payment = (await api('GET', `/payments?charge=${charge.body.id}`)).body.collection[0]
      payments.push(payment.id)
      refunds.push((await api('POST', `/payments/${payment.id}/refund`, { amount: 2.5 })).body.id)
    }

    const answers = await Promise.all([
      api('POST', '/test/settlements'),
      api('POST', '/test/settlements'),
    ])
    const batches = answers.map((answer) => {
      expect(answer.status).toBe(201)
      return settlementSchema.parse(answer.body)
    })
    const settledPayments = batches.flatMap((batch) => batch.payments)
    const settledRefunds = batches.flatMap((batch) => batch.refunds)
    expect([...settledPayments].sort()).toEqual([...payments].sort())
    expect([...settledRefunds].sort()).toEqual([...refunds].sort())
    expect(batches.flatMap((batch) => batch.instruments).sort()).toEqual([...instruments].sort())
    // The totals add up to each object once.
    const paid = batches
      .flatMap((batch) => batch.totals)
      .reduce((sum, total) => sum + toMinorUnits(total.payments_amount, total.currency), 0n)
    expect(paid).toBe(4000n)

    for (const [type, ids] of [
      ['payment.settled', payments],
      ['refund.settled', refunds],
      ['instrument.settled', instruments],
    ] as const) {
      for (const id of ids) {
        const events = await api('GET', `/events?type=${type}&object_id=${id}`)
        expect(events.body.pagination.total, `${type} of ${id}`).toBe(1)
      }
    }
  })
})
