import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'
import { onEachStore } from './store-under-test'

onEachStore({ embedded: 'without PostgreSQL' }, (freshStoreState) => {
  const owner = { id: 'acct_lists', key: 'sk_lists_0123456789' }
  const stranger = { id: 'acct_lists_other', key: 'sk_lists_other_9876543210' }
  let harness: TestSandbox

  // The embedded database's first folder is made once, in a hook of its own.
  beforeAll(async () => {
    harness = await startTestSandbox({ state: freshStoreState, accounts: [owner, stranger] })
  })
  afterAll(() => harness.close())

  /** One account's objects of every kind: a refunded and disputed payment, a reversal, a settlement. */
  async function objectsOf(account: typeof owner) {
    const api = harness.as(account)
    const newCharge = (captured: boolean) =>
      api('POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 20,
        currency: 'USD',
        events_url: harness.eventsUrl,
        instrument_params: { captured_on_creation: captured },
      })
    const paid = await newCharge(true)
    const instrument = await api('POST', '/instruments', testCard(paid.body.id))
    const payment = (await api('GET', `/payments?charge=${paid.body.id}`)).body.collection[0]
    const refund = await api('POST', `/payments/${payment.id}/refund`, { amount: 1 })
    const dispute = await api('POST', `/test/payments/${payment.id}/dispute`, { amount: 1 })
    const held = await newCharge(false)
    const heldInstrument = await api('POST', '/instruments', testCard(held.body.id))
    const reversal = await api('POST', `/instruments/${heldInstrument.body.id}/reversal`, {})
    const settlement = await api('POST', '/test/settlements')
    for (const answer of [refund, dispute, reversal, settlement]) expect(answer.status).toBe(201)
    return {
      charge: paid.body.id as string,
      heldCharge: held.body.id as string,
      instrument: instrument.body.id as string,
      heldInstrument: heldInstrument.body.id as string,
      payment: payment.id as string,
      refund: refund.body,
      dispute: dispute.body,
      reversal: reversal.body.id as string,
      settlement: settlement.body.id as string,
    }
  }

  const idsOf = (answer: { body: { collection: { id: string }[] } }) =>
    answer.body.collection.map((object) => object.id)

  describe('the charge list', () => {
    it('narrows to charges whose metadata has every given value, compared as text', async () => {
      const api = harness.as(owner)
      const order = `order-${Date.now()}`
      const create = (metadata: Record<string, unknown>) =>
        harness.createCharge({ metadata: { order, ...metadata } })
      const gift = (await create({ gift: true, count: 3, note: null })).body.id
      const plain = (await create({})).body.id
      const foreign = await harness.as(stranger)('POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 5,
        currency: 'EUR',
        events_url: harness.eventsUrl,
        metadata: { order },
      })
      expect(foreign.status).toBe(201)
      const ids = async (query: string) => {
        const answer = await api('GET', `/charges?${query}`)
        expect(answer.status, query).toBe(200)
        return answer.body.collection.map((charge: { id: string }) => charge.id)
      }
      expect(await ids(`metadata[order]=${order}`)).toEqual([plain, gift])
      expect(await ids(`metadata[order]=${order}&metadata[gift]=true&metadata[count]=3`)).toEqual([
        gift,
      ])
      expect(await ids(`metadata[order]=${order}&metadata[gift]=false`)).toEqual([])
      expect(await ids(`metadata[order]=${order}&metadata[note]=null`)).toEqual([])
      const filtered = await api('GET', `/charges?metadata[order]=${order}&per_page=1`)
      expect(filtered.body.filters).toEqual({ metadata: { order } })
      expect(filtered.body.pagination.total).toBe(2)
      const refused = await api('GET', '/charges?status=confirmed')
      expect(refused.status).toBe(400)
      expect(refused.body.parameters.status[0]).toContain('metadata[key]')
    })
  })

  describe('lists of instruments, refunds, reversals, disputes and settlements', () => {
    it('lists only the account’s own objects, narrowed by each filter, in the list envelope', async () => {
      // Each account's objects, settlement included, are its own: both are made at once.
      const [mine, theirs] = await Promise.all([objectsOf(owner), objectsOf(stranger)])
      const api = harness.as(owner)

      const instruments = await api('GET', '/instruments')
      expect(instruments.status).toBe(200)
      expect(idsOf(instruments).sort()).toEqual([mine.instrument, mine.heldInstrument].sort())
      expect(instruments.body.pagination).toEqual({ page: 1, per_page: 30, total: 2 })
      expect(instruments.body.filters).toEqual({})
      const byCharge = await api('GET', `/instruments?charge=${mine.heldCharge}`)
      expect(idsOf(byCharge)).toEqual([mine.heldInstrument])
      expect(byCharge.body.filters).toEqual({ charge: mine.heldCharge })
      const heldStatus = byCharge.body.collection[0].status
      expect(idsOf(await api('GET', `/instruments?status=${heldStatus}`))).toContain(
        mine.heldInstrument,
      )
      expect(idsOf(await api('GET', '/instruments?status=no_such_status'))).toEqual([])

      expect(idsOf(await api('GET', '/refunds'))).toEqual([mine.refund.id])
      expect(idsOf(await api('GET', `/refunds?payment=${mine.payment}`))).toEqual([mine.refund.id])
      expect(idsOf(await api('GET', `/refunds?charge=${mine.heldCharge}`))).toEqual([])
      const refundStatus = await api('GET', `/refunds?status=${mine.refund.status}`)
      expect(idsOf(refundStatus)).toEqual([mine.refund.id])
      expect(refundStatus.body.filters).toEqual({ status: mine.refund.status })

      expect(idsOf(await api('GET', '/reversals'))).toEqual([mine.reversal])
      expect(idsOf(await api('GET', `/reversals?instrument=${mine.heldInstrument}`))).toEqual([
        mine.reversal,
      ])
      expect(idsOf(await api('GET', `/reversals?charge=${mine.charge}`))).toEqual([])

      expect(idsOf(await api('GET', `/disputes?payment=${mine.payment}`))).toEqual([
        mine.dispute.id,
      ])
      expect(
        idsOf(await api('GET', `/disputes?charge=${mine.charge}&status=${mine.dispute.status}`)),
      ).toEqual([mine.dispute.id])
      expect(idsOf(await api('GET', '/disputes?status=no_such_status'))).toEqual([])

      expect(idsOf(await api('GET', '/settlements'))).toEqual([mine.settlement])

      // Another account's objects are never listed, not even when named by a filter.
      for (const path of [
        `/instruments?charge=${theirs.charge}`,
        `/refunds?payment=${theirs.payment}`,
        `/reversals?instrument=${theirs.heldInstrument}`,
        `/disputes?charge=${theirs.charge}`,
      ]) {
        const answer = await api('GET', path)
        expect(answer.status).toBe(200)
        expect(answer.body.collection).toEqual([])
      }
      expect(idsOf(await harness.as(stranger)('GET', '/settlements'))).toEqual([theirs.settlement])
    })

    it('pages with page and per_page', async () => {
      const api = harness.as(owner)
      const all = idsOf(await api('GET', '/instruments?per_page=100'))
      expect(all.length).toBeGreaterThanOrEqual(2)
      const first = await api('GET', '/instruments?per_page=1&page=1')
      const second = await api('GET', '/instruments?per_page=1&page=2')
      expect(first.body.pagination).toEqual({ page: 1, per_page: 1, total: all.length })
      expect([...idsOf(first), ...idsOf(second)]).toEqual(all.slice(0, 2))
    })

    it.each([
      ['/instruments?payment=pa_x', 'payment', 'charge, status'],
      ['/refunds?instrument=in_x', 'instrument', 'payment, charge, status'],
      ['/reversals?status=success', 'status', 'instrument, charge'],
      ['/disputes?instrument=in_x', 'instrument', 'payment, charge, status'],
      ['/settlements?charge=ch_x', 'charge', 'page, per_page'],
    ])('refuses a filter the list does not take: GET %s', async (path, parameter, accepted) => {
      const answer = await harness.as(owner)('GET', path)
      expect(answer.status).toBe(400)
      expect(answer.body.failure_code).toBe('01.01.0000')
      expect(Object.keys(answer.body.parameters)).toEqual([parameter])
      expect(answer.body.parameters[parameter][0]).toContain(accepted)
    })

    it('refuses a bad page size and an empty filter, naming the parameter', async () => {
      const api = harness.as(owner)
      const perPage = await api('GET', '/refunds?per_page=0')
      expect(perPage.status).toBe(400)
      expect(Object.keys(perPage.body.parameters)).toEqual(['per_page'])
      const empty = await api('GET', '/disputes?payment=')
      expect(empty.status).toBe(400)
      expect(Object.keys(empty.body.parameters)).toEqual(['payment'])
    })
  })
})
