import { encodeTestAmount } from '@chargekit/errors'
import { eventTypeList } from '@chargekit/schemas'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type ApiCaller,
  eventually,
  startTestSandbox,
  type TestSandbox,
  testCard,
} from '../src/testing/index'
import { onEachStore } from './store-under-test'

onEachStore({ embedded: 'without PostgreSQL' }, (freshStoreState) => {
  let harness: TestSandbox
  let api: ApiCaller

  // The embedded database's first folder is made once, in a hook of its own.
  beforeAll(async () => {
    // Default accounts and channels; only `--time-scale` (a stock CLI flag) shortens the
    // simulated acquirer's 2 s confirmations.
    harness = await startTestSandbox({ state: freshStoreState, timeScale: 0.001 })
    api = harness.api
  })
  afterAll(() => harness.close())

  async function charge(body: Record<string, unknown> = {}) {
    const answer = await harness.createCharge(body)
    return answer.body.id ?? answer.body.metadata.charge
  }

  async function instrument(body: Record<string, unknown> = {}) {
    const answer = await api('POST', '/instruments', testCard(await charge(body)))
    return answer.body.id ?? answer.body.metadata.instrument
  }

  const paymentOf = async (instrumentId: string) =>
    (await api('GET', `/payments?instrument=${instrumentId}`)).body.collection[0]

  // The recipes of the sandbox README's event table, one per row, each over plain HTTP.
  it('emits all 22 event types with the default channels', async () => {
    const uncaptured = { instrument_params: { captured_on_creation: false } }
    const acquirer = { channels: ['card_onetime_simulated_acquirer'] }

    // charge.created, charge.confirmed, instrument.created, instrument.authorized,
    // payment.success, then refund.success, the three settled events and both dispute events.
    const paid = await paymentOf(await instrument())
    await api('POST', `/payments/${paid.id}/refund`, { amount: 2 })
    await api('POST', '/test/settlements')
    const dispute = await api('POST', `/test/payments/${paid.id}/dispute`, { amount: 1 })
    await api('POST', `/test/disputes/${dispute.body.id}/settle`, { outcome: 'won' })

    // The error elements by amount, and instrument.risk with a 06.* code.
    await charge({ amount: encodeTestAmount('02.04.0000', 'charge') })
    await instrument({ amount: encodeTestAmount('06.02.0000', 'instrument') })
    await instrument({ amount: encodeTestAmount('03.03.0000', 'payment') })
    const refundable = await paymentOf(
      await instrument({ amount: encodeTestAmount('02.03.0000', 'refund') }),
    )
    await api('POST', `/payments/${refundable.id}/refund`, { amount: 1 })
    await api(
      'DELETE',
      `/instruments/${await instrument({ amount: encodeTestAmount('04.01.0000', 'reversal') })}`,
    )

    // reversal.success (then instrument.invalid) and 3-D Secure's instrument.pending.
    await api('DELETE', `/instruments/${await instrument(uncaptured)}`)
    await instrument({ instrument_params: { enable3ds: true } })

    // The acquirer answers captures, refunds and reversals later: the .pending events.
    const pending = await paymentOf(await instrument(acquirer))
    await eventually(async () => {
      expect((await api('GET', `/payments/${pending.id}`)).body.status).toBe('success')
    })
    await api('POST', '/refunds', { payment: pending.id, amount: 1 })
    await api('DELETE', `/instruments/${await instrument({ ...acquirer, ...uncaptured })}`)

    const events = await api('GET', '/events?per_page=100')
    expect(events.body.pagination.total).toBeLessThanOrEqual(100)
    const emitted = new Set(events.body.collection.map((event: { type: string }) => event.type))
    expect([...eventTypeList].filter((type) => !emitted.has(type))).toEqual([])
    expect(eventTypeList).toHaveLength(22)
  })
})
