import type { TestSandbox } from '@chargekit/sandbox/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ChargekitClient,
  ConflictError,
  type InstrumentCreateParams,
  NotFoundError,
} from '../src/index'
import { chargeParams } from './support/flows'
import { onEachTransport, startClientSandbox } from './support/sandbox'

onEachTransport(({ testClient }) => {
  let env: TestSandbox
  let client: ChargekitClient

  beforeAll(async () => {
    // MB WAY's 5-minute window becomes 3 s: long enough for a test, short for nothing.
    env = await startClientSandbox({ timeScale: 0.01 })
    client = testClient(env.sandbox.url)
  })
  afterAll(() => env.close())

  const euros = (chargeType: string) =>
    chargeParams(env.eventsUrl, { charge_type: chargeType, amount: 19.9, currency: 'EUR' })

  describe('MB WAY', () => {
    it('is pending until the customer approves in the app, then authorized and paid', async () => {
      const charge = await client.charges.create(euros('mbway'))
      const request: InstrumentCreateParams = {
        charge: charge.id,
        phone_number: '+351 912 345 678',
      }
      const pending = await client.instruments.create(request)
      expect(pending).toMatchObject({
        status: 'pending',
        channel: { label: 'mbway_mbway' },
        params: { phone_number: '91*****78' },
        redirect: { url: null, method: null, parameters: { phone_number: '91*****78' } },
      })
      expect(pending.redirect?.parameters?.expires_at).toEqual(expect.any(String))

      const approved = await client.testHelpers.approveInstrument(pending.id)
      expect(approved).toMatchObject({ id: pending.id, status: 'authorized', redirect: null })
      const payments = await client.payments.list({ charge: charge.id })
      expect(payments.collection).toMatchObject([{ amount: 19.9, status: 'success' }])

      // Answered: a second answer is a conflict, with the service's reason.
      const again = client.testHelpers.declineInstrument(pending.id)
      await expect(again).rejects.toBeInstanceOf(ConflictError)
      await expect(again).rejects.toThrow(/is not waiting for the customer \(status authorized\)/)
    })

    it('is invalid when the customer declines, or lets the request expire', async () => {
      const declinedCharge = await client.charges.create(euros('mbway'))
      const declined = await client.testHelpers.declineInstrument(
        (await client.instruments.create({ charge: declinedCharge.id, phone_number: '912345678' }))
          .id,
      )
      expect(declined).toMatchObject({ status: 'invalid', failure_code: '03.00.0001' })

      const expiredCharge = await client.charges.create(euros('mbway'))
      const expired = await client.testHelpers.expireInstrument(
        (await client.instruments.create({ charge: expiredCharge.id, phone_number: '912345678' }))
          .id,
      )
      expect(expired).toMatchObject({ status: 'invalid', failure_code: '03.00.0002' })
    })
  })

  describe('Multibanco', () => {
    it('shows the entity, reference, amount and expiry; paying it authorizes and pays', async () => {
      const charge = await client.charges.create(euros('multibanco'))
      const pending = await client.instruments.create({ charge: charge.id })
      expect(pending.status).toBe('pending')
      expect(pending.redirect).toEqual({
        url: null,
        method: null,
        parameters: {
          entity: '21098',
          reference: expect.stringMatching(/^\d{9}$/),
          amount: 19.9,
          currency: 'EUR',
          expires_at: expect.any(String),
        },
      })
      // An app's answer is not how a reference is paid.
      await expect(client.testHelpers.approveInstrument(pending.id)).rejects.toThrow(
        /waits for its payment reference to be paid/,
      )

      const paid = await client.testHelpers.payReference(pending.id)
      expect(paid).toMatchObject({ status: 'authorized', captured_amount: 19.9 })
      const [payment] = (await client.payments.list({ charge: charge.id })).collection
      // Multibanco payments are returned by bank transfer, not refunded through the API.
      const refund = client.payments.refund(payment?.id ?? '', { amount: 1 })
      await expect(refund).rejects.toBeInstanceOf(ConflictError)
      await expect(refund).rejects.toMatchObject({ code: '05.04.0000' })
    })
  })

  describe('the customer test helpers', () => {
    it('throw NotFoundError for an unknown instrument and check the id before sending', async () => {
      await expect(client.testHelpers.payReference('in_missing')).rejects.toBeInstanceOf(
        NotFoundError,
      )
      await expect(client.testHelpers.approveInstrument('')).rejects.toThrow(
        /^testHelpers\.approveInstrument: instrumentId must be a non-empty string such as "in_…"/,
      )
    })

    it('retry safely: an answer retried with its idempotency key is replayed', async () => {
      const charge = await client.charges.create(euros('paypal'))
      const pending = await client.instruments.create({ charge: charge.id })
      const options = { idempotencyKey: `approve-${pending.id}` }
      const first = await client.testHelpers.approveInstrument(pending.id, options).withResponse()
      const retried = await client.testHelpers.approveInstrument(pending.id, options).withResponse()
      expect(first).toMatchObject({ status: 200, idempotentReplayed: false })
      expect(first.data.status).toBe('authorized')
      expect(retried).toMatchObject({ status: 200, idempotentReplayed: true, data: first.data })
    })
  })
})
