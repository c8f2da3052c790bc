import {
  chargeSchema,
  instrumentSchema,
  knownEventSchemas,
  paymentSchema,
  refundSchema,
  reversalSchema,
} from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'
import { eventTypesOf } from './event-types'
import { onEachStore } from './store-under-test'

onEachStore({ embedded: 'always' }, (freshStoreState) => {
  let harness: TestSandbox

  /** An event as the API returns it; the assertions check the fields they read. */
  type EventJson = Record<string, Record<string, unknown> & { id?: string }> & { type: string }

  // The embedded database's first folder is made once, in a hook of its own.
  beforeAll(async () => {
    harness = await startTestSandbox({ state: freshStoreState })
  })
  afterAll(() => harness.close())

  async function newCharge(body: Record<string, unknown>) {
    const answer = await harness.api('POST', '/charges', {
      currency: 'USD',
      events_url: harness.eventsUrl,
      ...body,
    })
    expect(answer.status).toBe(201)
    return chargeSchema.parse(answer.body)
  }

  /** Every event of the charge parses with the schema of its type (full form, right objects). */
  async function checkEventsOf(chargeId: string) {
    const answer = await harness.api('GET', `/events?charge=${chargeId}&per_page=100`)
    for (const event of answer.body.collection) {
      const schema = knownEventSchemas[event.type as keyof typeof knownEventSchemas]
      expect(schema, event.type).toBeDefined()
      schema.parse(event)
      expect(event.charge.id).toBe(chargeId)
      expect(event.type_label).toMatch(/^[A-Z][a-z]+ [a-z]+$/)
    }
    return answer.body.collection as EventJson[]
  }

  describe('capture on creation (card_onetime)', () => {
    it('authorizes, captures the charge amount at once, refunds in parts and settles', async () => {
      const charge = await newCharge({
        charge_type: 'card_onetime',
        amount: 25.5,
        metadata: { order: 'A-1' },
      })
      expect(charge).toMatchObject({
        confirmed: true,
        charge_type_label: 'Card one-time payment',
        instrument_params: { captured_on_creation: true, recurring: false, enable3ds: false },
        channels: [{ label: 'card_onetime_no_processor', processor: 'no_processor' }],
        redirect_url: '',
        failure_code: null,
      })

      const created = await harness.api('POST', '/instruments', testCard(charge.id))
      expect(created.status).toBe(201)
      const instrument = instrumentSchema.parse(created.body)
      expect(instrument).toMatchObject({
        status: 'authorized',
        success: true,
        charge: {
          id: charge.id,
          charge_type: 'card_onetime',
          charge_type_label: expect.any(String),
        },
        used: true,
        amount: 25.5,
        captured_amount: 25.5,
        recurring: false,
        captured_on_creation: true,
        params: { brand: 'VISA', bin: '424242', last_4_digits: '4242', type: 'CREDIT' },
      })
      expect(JSON.stringify(instrument)).not.toContain('4242424242424242')

      const payments = await harness.api('GET', `/payments?charge=${charge.id}`)
      expect(payments.body.pagination.total).toBe(1)
      const payment = paymentSchema.parse(payments.body.collection[0])
      expect(payment).toMatchObject({
        amount: 25.5,
        status: 'success',
        success: true,
        charge: instrument.charge,
        instrument: { id: instrument.id },
        refunds: [],
      })
      expect(instrument.last_payment).toEqual({ id: payment.id, success: true, status: 'success' })

      const first = await harness.api('POST', `/payments/${payment.id}/refund`, { amount: 10.2 })
      const second = await harness.api('POST', `/payments/${payment.id}/refund`, { amount: 15.3 })
      expect([first.status, second.status]).toEqual([201, 201])
      refundSchema.parse(second.body)
      const refunded = await harness.api('GET', `/payments/${payment.id}`)
      // 10.2 + 15.3 is 25.500000000000004 in floats; the sandbox sums minor units.
      expect(refunded.body.refunded_amount).toBe(25.5)
      expect(refunded.body.refunds).toEqual([
        { id: first.body.id, amount: 10.2, success: true },
        { id: second.body.id, amount: 15.3, success: true },
      ])
      const over = await harness.api('POST', `/payments/${payment.id}/refund`, { amount: 0.01 })
      expect(over.status).toBe(409)

      const settlement = await harness.api('POST', '/test/settlements')
      expect(settlement.status).toBe(201)
      expect(settlement.body.payments).toContain(payment.id)
      expect(settlement.body.instruments).toContain(instrument.id)
      const total = settlement.body.totals.find(
        (entry: { currency: string }) => entry.currency === 'USD',
      )
      expect(total).toBeDefined()

      expect(await eventTypesOf(harness.api, charge.id)).toEqual([
        'charge.created',
        'charge.confirmed',
        'instrument.created',
        'instrument.authorized',
        'payment.success',
        'refund.success',
        'refund.success',
        'payment.settled',
        'refund.settled',
        'refund.settled',
        'instrument.settled',
      ])
      const events = await checkEventsOf(charge.id)
      const paymentSuccess = events.find((event) => event.type === 'payment.success')
      // Snapshots: the payment event shows the payment before any refund.
      expect(paymentSuccess?.payment?.refunded_amount).toBe(0)
      expect(paymentSuccess?.instrument?.captured_amount).toBe(25.5)
      expect(paymentSuccess?.object_id).toBe(payment.id)
      const settled = events.find((event) => event.type === 'payment.settled')
      expect(settled?.settlement?.id).toBe(settlement.body.id)
      expect(settled?.payment?.settled_at).toBe(settlement.body.created_at)

      // A second settlement finds nothing new and never settles an instrument twice.
      const again = await harness.api('POST', '/test/settlements')
      expect(again.body.payments).not.toContain(payment.id)
      expect(again.body.instruments).not.toContain(instrument.id)
    })
  })

  describe('authorize, then capture (card_onetime, captured_on_creation false)', () => {
    it('captures in parts up to the authorized amount', async () => {
      const charge = await newCharge({
        charge_type: 'card_onetime',
        amount: 100,
        instrument_params: { captured_on_creation: false },
      })
      const instrument = await harness.api('POST', '/instruments', testCard(charge.id))
      expect(instrument.body).toMatchObject({ status: 'authorized', captured_amount: 0 })
      expect(
        (await harness.api('GET', `/payments?instrument=${instrument.body.id}`)).body.pagination
          .total,
      ).toBe(0)

      const capture = (amount: number) =>
        harness.api('POST', '/payments', {
          instrument: instrument.body.id,
          amount,
          currency: 'USD',
          description: 'Order A-2',
          metadata: { shipment: 1 },
        })
      const first = await capture(60)
      expect(first.status).toBe(201)
      expect(first.body).toMatchObject({
        amount: 60,
        description: 'Order A-2',
        metadata: { shipment: 1 },
      })
      expect((await capture(40.01)).status).toBe(409)
      expect((await capture(40)).status).toBe(201)
      const full = await capture(1)
      expect(full.status).toBe(409)
      expect(full.body.failure_code).toBe('05.04.0001')
      const current = await harness.api('GET', `/instruments/${instrument.body.id}`)
      expect(current.body.captured_amount).toBe(100)

      expect(await eventTypesOf(harness.api, charge.id)).toEqual([
        'charge.created',
        'charge.confirmed',
        'instrument.created',
        'instrument.authorized',
        'payment.success',
        'payment.success',
      ])
      await checkEventsOf(charge.id)
    })

    it('reverses an uncaptured authorization, which invalidates the instrument', async () => {
      const charge = await newCharge({
        charge_type: 'card_onetime',
        amount: 42,
        instrument_params: { captured_on_creation: false },
      })
      const instrument = await harness.api('POST', '/instruments', testCard(charge.id))
      const reversal = await harness.api('POST', `/instruments/${instrument.body.id}/reversal`, {})
      expect(reversal.status).toBe(201)
      expect(reversalSchema.parse(reversal.body)).toMatchObject({
        amount: 42,
        status: 'success',
        success: true,
      })
      const after = await harness.api('GET', `/instruments/${instrument.body.id}`)
      expect(after.body.status).toBe('invalid')
      expect(await eventTypesOf(harness.api, charge.id)).toEqual([
        'charge.created',
        'charge.confirmed',
        'instrument.created',
        'instrument.authorized',
        'reversal.success',
        'instrument.invalid',
      ])
      await checkEventsOf(charge.id)
      const read = await harness.api('GET', `/reversals/${reversal.body.id}`)
      expect(read.body).toEqual(reversal.body)
    })

    it('voids with DELETE /v2/instruments/{id} too, answering 204 without a body', async () => {
      const charge = await newCharge({
        charge_type: 'card_onetime',
        amount: 5,
        instrument_params: { captured_on_creation: false },
      })
      const instrument = await harness.api('POST', '/instruments', testCard(charge.id))
      const voided = await harness.api('DELETE', `/instruments/${instrument.body.id}`)
      expect(voided.status).toBe(204)
      expect(voided.body).toBe('')
      const reversal = await harness.api('GET', `/events?charge=${charge.id}&type=reversal.success`)
      expect(reversal.body.collection[0].reversal.instrument).toBe(instrument.body.id)
    })
  })

  describe('recurring on authorization (card_recurring)', () => {
    it('authorizes without capturing, then takes several payments from the token', async () => {
      const charge = await newCharge({ charge_type: 'card_recurring', amount: 9.99 })
      expect(charge.instrument_params).toEqual({
        captured_on_creation: false,
        enable3ds: false,
        recurring: true,
      })
      const instrument = await harness.api('POST', '/instruments', testCard(charge.id))
      expect(instrument.body).toMatchObject({
        status: 'authorized',
        recurring: true,
        captured_amount: 0,
      })
      for (const month of [1, 2, 3]) {
        const payment = await harness.api('POST', '/payments', {
          instrument: instrument.body.id,
          amount: 9.99,
          currency: 'USD',
          description: `Month ${month}`,
        })
        expect(payment.status).toBe(201)
      }
      // A token: a payment over the verification amount is a new authorization, not a 409.
      const over = await harness.api('POST', '/payments', {
        instrument: instrument.body.id,
        amount: 10,
        currency: 'USD',
      })
      expect(over.status).toBe(201)
      const current = await harness.api('GET', `/instruments/${instrument.body.id}`)
      expect(current.body.captured_amount).toBe(39.97)
      expect(await eventTypesOf(harness.api, charge.id)).toEqual([
        'charge.created',
        'charge.confirmed',
        'instrument.created',
        'instrument.authorized',
        'payment.success',
        'payment.success',
        'payment.success',
        'payment.success',
      ])
      await checkEventsOf(charge.id)
    })
  })

  describe('recurring on capture (card_recurring, captured_on_creation true)', () => {
    it('captures the first payment at once and allows more later', async () => {
      const charge = await newCharge({
        charge_type: 'card_recurring',
        amount: 20,
        currency: 'JPY',
        instrument_params: { captured_on_creation: true },
      })
      const instrument = await harness.api('POST', '/instruments', testCard(charge.id))
      expect(instrument.body).toMatchObject({
        status: 'authorized',
        recurring: true,
        captured_amount: 20,
      })
      const next = await harness.api('POST', '/payments', {
        instrument: instrument.body.id,
        amount: 20,
        currency: 'JPY',
      })
      expect(next.status).toBe(201)
      expect(await eventTypesOf(harness.api, charge.id)).toEqual([
        'charge.created',
        'charge.confirmed',
        'instrument.created',
        'instrument.authorized',
        'payment.success',
        'payment.success',
      ])
      await checkEventsOf(charge.id)
    })
  })

  describe('disputes (test helpers)', () => {
    it('opens a dispute for what is left after refunds and settles it', async () => {
      const charge = await newCharge({ charge_type: 'card_onetime', amount: 50 })
      await harness.api('POST', '/instruments', testCard(charge.id))
      const payment = (await harness.api('GET', `/payments?charge=${charge.id}`)).body.collection[0]
      await harness.api('POST', `/payments/${payment.id}/refund`, { amount: 20 })
      const tooMuch = await harness.api('POST', `/test/payments/${payment.id}/dispute`, {
        amount: 30.01,
      })
      expect(tooMuch.status).toBe(409)
      const dispute = await harness.api('POST', `/test/payments/${payment.id}/dispute`, {
        reason: 'fraudulent',
      })
      expect(dispute.status).toBe(201)
      expect(dispute.body).toMatchObject({
        amount: 30,
        status: 'open',
        reason: 'fraudulent',
        payment: payment.id,
      })
      const settled = await harness.api('POST', `/test/disputes/${dispute.body.id}/settle`, {
        outcome: 'lost',
      })
      expect(settled.status).toBe(200)
      expect(settled.body).toMatchObject({ status: 'lost' })
      expect(settled.body.settled_at).not.toBeNull()
      const twice = await harness.api('POST', `/test/disputes/${dispute.body.id}/settle`, {
        outcome: 'won',
      })
      expect(twice.status).toBe(409)
      expect((await harness.api('GET', `/disputes/${dispute.body.id}`)).body.status).toBe('lost')
      const types = await eventTypesOf(harness.api, charge.id)
      expect(types.slice(-2)).toEqual(['dispute.created', 'dispute.settled'])
      await checkEventsOf(charge.id)
    })
  })
})
