import type { TestSandbox } from '@chargekit/sandbox/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChargekitClient, ConflictError } from '../src/index'
import { authorize, capture, card, chargeParams } from './support/flows'
import { onEachTransport, startClientSandbox } from './support/sandbox'

onEachTransport(({ testClient }) => {
  let env: TestSandbox
  let client: ChargekitClient

  beforeAll(async () => {
    env = await startClientSandbox()
    client = testClient(env.sandbox.url)
  })
  afterAll(() => env.close())

  describe('charges.confirm', () => {
    it('confirms an unconfirmed charge once; a second confirm answers it unchanged', async () => {
      const charge = await client.charges.create(
        chargeParams(env.eventsUrl, { confirmed: false, description: 'Order 17' }),
      )
      expect(charge).toMatchObject({ confirmed: false, description: 'Order 17' })
      const early = await client.instruments.create({ ...card, charge: charge.id }).catch((e) => e)
      expect(early).toBeInstanceOf(ConflictError)
      const confirmed = await client.charges.confirm(charge.id)
      expect(confirmed.confirmed).toBe(true)
      expect(await client.charges.confirm(charge.id)).toEqual(confirmed)
      const events = await client.events.list({ charge: charge.id, type: 'charge.confirmed' })
      expect(events.pagination.total).toBe(1)
    })
  })

  describe('charges.types', () => {
    it('lists the account’s charge types with the JSON Schema of their instrument request', async () => {
      const types = await client.charges.types()
      const ids = types.map((type) => type.id)
      expect(ids).toEqual(expect.arrayContaining(['card_onetime', 'card_recurring']))
      const recurring = types.find((type) => type.id === 'card_recurring')
      expect(recurring?.recurring).toBe(true)
      expect(recurring?.schema).toMatchObject({
        type: 'object',
        properties: { number: expect.any(Object), cvc: expect.any(Object) },
      })
    })
  })

  describe('refunds.create', () => {
    it('refunds a payment named in the body, as payments.refund does', async () => {
      const { payment } = await capture(client, env.eventsUrl, { amount: 40 })
      const refund = await client.refunds.create({ payment: payment.id, amount: 15.5 })
      expect(refund).toMatchObject({ payment: payment.id, amount: 15.5, status: 'success' })
      const refunded = await client.payments.retrieve(payment.id)
      expect(refunded.refunds).toEqual([{ id: refund.id, amount: 15.5, success: true }])
      const tooMuch = await client.refunds
        .create({ payment: payment.id, amount: 24.51 })
        .catch((error) => error)
      expect(tooMuch).toBeInstanceOf(ConflictError)
      expect(tooMuch.code).toBe('01.02.0000')
    })
  })

  describe('instruments.invalidate', () => {
    it('reverses an uncaptured authorization and leaves the instrument invalid', async () => {
      const { charge, instrument } = await authorize(client, env.eventsUrl)
      await expect(client.instruments.invalidate(instrument.id)).resolves.toBeUndefined()
      expect((await client.instruments.retrieve(instrument.id)).status).toBe('invalid')
      const events = await client.events.list({ charge: charge.id, per_page: 100 })
      const types = events.collection.map((event) => event.type)
      expect(types).toContain('reversal.success')
      expect(types[0]).toBe('instrument.invalid')
      // Invalidating an invalid instrument is a no-op, still answered 204.
      await expect(client.instruments.invalidate(instrument.id)).resolves.toBeUndefined()
    })
  })
})
