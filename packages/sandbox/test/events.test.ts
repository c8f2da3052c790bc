import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eventSchema } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ApiCaller,
  eventually,
  startTestSandbox,
  type TestSandbox,
  testCard,
} from '../src/testing/index'
import { onEachStore } from './store-under-test'

onEachStore({ embedded: 'always' }, (freshStoreState) => {
  let harness: TestSandbox
  let api: ApiCaller
  let answerStatus = 500
  let received = 0
  const receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      received++
      response.writeHead(answerStatus)
      response.end()
    })
  })
  let failingUrl = ''
  const flow = { chargeId: '', paymentId: '', otherChargeId: '' }

  // The embedded database's first folder is made once, in a hook of its own.
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    failingUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
    harness = await startTestSandbox({ state: freshStoreState })
    api = harness.api
    const charge = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 15,
      currency: 'EUR',
      events_url: harness.eventsUrl,
      metadata: { order_id: 'ord-1', channel: 'web', vip: true },
    })
    await api('POST', '/instruments', testCard(charge.body.id))
    const payment = (await api('GET', `/payments?charge=${charge.body.id}`)).body.collection[0]
    await api('POST', `/payments/${payment.id}/refund`, { amount: 5 })
    const other = await api('POST', '/charges', {
      charge_type: 'card_recurring',
      amount: 3,
      currency: 'EUR',
      events_url: failingUrl,
      metadata: { order_id: 'ord-2', channel: 'web' },
    })
    Object.assign(flow, {
      chargeId: charge.body.id,
      paymentId: payment.id,
      otherChargeId: other.body.id,
    })
  })
  afterAll(async () => {
    await harness.close()
    receiver.closeAllConnections()
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  })

  const list = async (query: string) => {
    const answer = await api('GET', `/events?per_page=100&${query}`)
    expect(answer.status).toBe(200)
    return answer.body as {
      collection: {
        id: string
        type: string
        object_id: string
        created_at: string
        charge: { id: string }
      }[]
      pagination: { page: number; per_page: number; total: number }
      filters: Record<string, unknown>
    }
  }

  describe('GET /v2/events/{id}', () => {
    it('returns the full form with the objects as they stood at that moment', async () => {
      const { collection } = await list(`charge=${flow.chargeId}&type=refund.success`)
      const event = (await api('GET', `/events/${collection[0]?.id}`)).body
      eventSchema.parse(event)
      expect(event).toMatchObject({
        type: 'refund.success',
        type_label: 'Refund success',
        charge: { id: flow.chargeId, metadata: { order_id: 'ord-1' } },
        payment: { id: flow.paymentId, refunded_amount: 5 },
        refund: { amount: 5, status: 'success' },
        instrument: {
          status: 'authorized',
          last_payment: { id: flow.paymentId, status: 'success' },
        },
        settlement: null,
        dismissed_at: null,
      })
      expect(event.object_id).toBe(event.refund.id)
      // A listed event has the same fields, in the same order, as the event read by id.
      const listed = (await api('GET', `/events?charge=${flow.chargeId}&type=refund.success`)).body
      expect(Object.keys(listed.collection[0])).toEqual(Object.keys(event))
    })

    it('carries every object of the transaction as it stood: a dispute after a refund shows it', async () => {
      const charge = await api('POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 30,
        currency: 'EUR',
        events_url: harness.eventsUrl,
      })
      const instrument = (await api('POST', '/instruments', testCard(charge.body.id))).body
      const payment = (await api('GET', `/payments?charge=${charge.body.id}`)).body.collection[0]
      const refund = (await api('POST', `/payments/${payment.id}/refund`, { amount: 4 })).body
      await api('POST', `/test/payments/${payment.id}/dispute`, { amount: 6 })
      const full = async (type: string) => {
        const [summary] = (await list(`charge=${charge.body.id}&type=${type}`)).collection
        return eventSchema.parse((await api('GET', `/events/${summary?.id}`)).body)
      }

      const disputed = await full('dispute.created')
      expect(disputed.refund).toMatchObject({ id: refund.id, status: 'success' })
      expect(disputed.payment?.refunds).toEqual([{ id: refund.id, amount: 4, success: true }])
      expect(disputed.instrument).toMatchObject({ id: instrument.id, used: true })
      // Earlier events keep what stood then: no refund yet when the payment succeeded.
      const paid = await full('payment.success')
      expect(paid.refund).toBeNull()
      expect(paid.payment?.refunds).toEqual([])
      const created = await full('instrument.created')
      expect(created.instrument).toMatchObject({ used: false, last_payment: null })
      expect(created.payment).toBeNull()
    })

    it('answers 404 for an unknown id', async () => {
      expect((await api('GET', '/events/ev_missing')).status).toBe(404)
    })
  })

  describe('GET /v2/events filters', () => {
    it('lists newest first with pagination', async () => {
      const all = await list(`charge=${flow.chargeId}`)
      expect(all.collection.map((event) => event.type)).toEqual([
        'refund.success',
        'payment.success',
        'instrument.authorized',
        'instrument.created',
        'charge.confirmed',
        'charge.created',
      ])
      const second = await api('GET', `/events?charge=${flow.chargeId}&per_page=4&page=2`)
      expect(second.body.pagination).toEqual({ page: 2, per_page: 4, total: 6 })
      expect(second.body.collection.map((event: { id: string }) => event.id)).toEqual(
        all.collection.slice(4).map((event) => event.id),
      )
      expect((await api('GET', '/events?per_page=101')).status).toBe(400)
      expect((await api('GET', '/events?page=0')).status).toBe(400)
    })

    it('filters by one or several types and echoes the filters', async () => {
      const one = await list(`charge=${flow.chargeId}&type=payment.success`)
      expect(one.collection.map((event) => event.type)).toEqual(['payment.success'])
      expect(one.filters).toEqual({ charge: flow.chargeId, type: 'payment.success' })
      const two = await list(`charge=${flow.chargeId}&type=payment.success&type=charge.created`)
      expect(two.collection.map((event) => event.type)).toEqual([
        'payment.success',
        'charge.created',
      ])
      const bad = await api('GET', '/events?type=payment.nope')
      expect(bad.status).toBe(400)
      expect(bad.body.parameters.type).toBeDefined()
    })

    it('filters by object id', async () => {
      const found = await list(`object_id=${flow.paymentId}`)
      expect(found.collection.map((event) => event.type)).toEqual(['payment.success'])
    })

    it('filters by metadata (all pairs must match, own keys only)', async () => {
      const web = await list('metadata[channel]=web')
      expect(new Set(web.collection.map((event) => event.charge.id))).toEqual(
        new Set([flow.chargeId, flow.otherChargeId]),
      )
      const one = await list('metadata[channel]=web&metadata[order_id]=ord-2')
      expect(new Set(one.collection.map((event) => event.charge.id))).toEqual(
        new Set([flow.otherChargeId]),
      )
      expect((await list('metadata[vip]=true')).collection.length).toBe(6)
      expect((await list('metadata[constructor]=Object')).pagination.total).toBe(0)
      expect((await list('metadata[toString]=x')).pagination.total).toBe(0)
    })

    it('filters by a time range (inclusive)', async () => {
      const all = (await list(`charge=${flow.chargeId}`)).collection
      const middle = all[3]
      if (middle === undefined) throw new Error('expected six events')
      const from = await list(`charge=${flow.chargeId}&created_gte=${middle.created_at}`)
      expect(from.collection.every((event) => event.created_at >= middle.created_at)).toBe(true)
      expect(from.collection.map((event) => event.id)).toContain(middle.id)
      const until = await list(`charge=${flow.chargeId}&created_lte=${middle.created_at}`)
      expect(until.collection.every((event) => event.created_at <= middle.created_at)).toBe(true)
      expect(until.collection.map((event) => event.id)).toContain(middle.id)
      const offset = new Date(Date.parse(middle.created_at) + 3_600_000)
        .toISOString()
        .replace('Z', '+01:00')
      const sameInstant = await list(
        `charge=${flow.chargeId}&created_lte=${encodeURIComponent(offset)}`,
      )
      expect(sameInstant.pagination.total).toBe(until.pagination.total)
      expect((await api('GET', '/events?created_gte=yesterday')).status).toBe(400)
    })

    it('dismisses events and filters by dismissed', async () => {
      const [target] = (await list(`charge=${flow.chargeId}&type=charge.created`)).collection
      const dismissed = await api('POST', `/events/${target?.id}/dismiss`, {})
      expect(dismissed.status).toBe(200)
      expect(dismissed.body.dismissed_at).toEqual(expect.any(String))
      const again = await api('POST', `/events/${target?.id}/dismiss`)
      expect(again.body.dismissed_at).toBe(dismissed.body.dismissed_at)
      const hidden = await list(`charge=${flow.chargeId}&dismissed=false`)
      expect(hidden.collection.map((event) => event.id)).not.toContain(target?.id)
      const shown = await list(`charge=${flow.chargeId}&dismissed=true`)
      expect(shown.collection.map((event) => event.id)).toEqual([target?.id])
    })

    it('filters by delivery result and status', async () => {
      await eventually(async () => {
        const delivered = await list(`charge=${flow.chargeId}&delivery_status=delivered`)
        expect(delivered.pagination.total).toBe(6)
      })
      const byStatus = await list(`charge=${flow.chargeId}&result_status=204`)
      expect(byStatus.pagination.total).toBe(6)
      await eventually(async () => {
        const failing = await list(`charge=${flow.otherChargeId}&delivery_status=failing`)
        expect(failing.pagination.total).toBe(2)
      })
      expect((await list(`charge=${flow.otherChargeId}&result_status=500`)).pagination.total).toBe(
        2,
      )
    })
  })

  describe('POST /v2/events/{id}/redeliver', () => {
    it('makes one attempt now and logs it on the event, newest first', async () => {
      const [event] = (await list(`charge=${flow.otherChargeId}&type=charge.created`)).collection
      await eventually(async () => {
        expect((await api('GET', `/events/${event?.id}`)).body.result_status).toBe(500)
      })
      const before = received
      const failed = await api('POST', `/events/${event?.id}/redeliver`)
      expect(failed.status).toBe(200)
      expect(failed.body.result_status).toBe(500)
      expect(failed.body.retries_log[0].result_status).toBe(500)
      answerStatus = 200
      const delivered = await api('POST', `/events/${event?.id}/redeliver`, {})
      expect(delivered.body).toMatchObject({ result_status: 200, delivery_status: 'delivered' })
      expect(delivered.body.retries_log.length).toBe(failed.body.retries_log.length + 1)
      expect(delivered.body.retries_log[0].result_status).toBe(200)
      expect(
        delivered.body.retries_log[0].created_at >= delivered.body.retries_log[1].created_at,
      ).toBe(true)
      expect(received - before).toBe(2)
    })
  })

  describe('deliverEvents: false', () => {
    it('records events without sending them; a manual redelivery still goes out', async () => {
      const quiet = await startTestSandbox({ state: freshStoreState, deliverEvents: false })
      try {
        const before = received
        const charge = await quiet.api('POST', '/charges', {
          charge_type: 'card_onetime',
          amount: 1,
          currency: 'EUR',
          events_url: failingUrl,
        })
        const events = await quiet.api('GET', `/events?charge=${charge.body.id}`)
        expect(
          events.body.collection.map((event: { delivery_status: string }) => event.delivery_status),
        ).toEqual(['none', 'none'])
        const redelivered = await quiet.api(
          'POST',
          `/events/${events.body.collection[0].id}/redeliver`,
        )
        expect(redelivered.body.retries_log.length).toBe(1)
        expect(received - before).toBe(1)
      } finally {
        await quiet.close()
      }
    })
  })
})
