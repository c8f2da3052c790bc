import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'
import { onEachStore } from './store-under-test'

onEachStore({ embedded: 'without PostgreSQL' }, (freshStoreState) => {
  /**
   * captured ≥ refunded + disputed (open or lost), whichever comes first and however the requests
   * interleave; a won dispute gives its amount back to the merchant.
   */
  let harness: TestSandbox

  // The embedded database's first folder is made once, in a hook of its own.
  beforeAll(async () => {
    harness = await startTestSandbox({ state: freshStoreState, deliverEvents: false })
  })
  afterAll(() => harness.close())

  /** A captured payment of `amount` EUR. */
  async function capturedPayment(amount: number): Promise<string> {
    const charge = await harness.api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount,
      currency: 'EUR',
      events_url: harness.eventsUrl,
    })
    await harness.api('POST', '/instruments', testCard(charge.body.id))
    const payments = await harness.api('GET', `/payments?charge=${charge.body.id}`)
    return payments.body.collection[0].id
  }

  const refund = (payment: string, amount: number) =>
    harness.api('POST', `/payments/${payment}/refund`, { amount })
  const dispute = (payment: string, amount: number) =>
    harness.api('POST', `/test/payments/${payment}/dispute`, { amount })
  const settle = (dispute: string, outcome: 'won' | 'lost') =>
    harness.api('POST', `/test/disputes/${dispute}/settle`, { outcome })

  describe('refunds and disputes share the captured amount', () => {
    it('refuses a refund of what a lost dispute already returned', async () => {
      const payment = await capturedPayment(100)
      const opened = await dispute(payment, 100)
      expect(opened.status).toBe(201)
      const whileOpen = await refund(payment, 100)
      expect(whileOpen.status).toBe(409)
      expect(whileOpen.body.failure_code).toBe('01.02.0000')
      expect(whileOpen.body.message).toMatch(/100 EUR is disputed/)
      await settle(opened.body.id, 'lost')
      const afterLoss = await refund(payment, 100)
      expect(afterLoss.status).toBe(409)
      expect((await refund(payment, 0.01)).status).toBe(409)
    })

    it('frees the amount again once the merchant wins the dispute', async () => {
      const payment = await capturedPayment(100)
      const opened = await dispute(payment, 60)
      expect((await refund(payment, 40.01)).status).toBe(409)
      expect((await refund(payment, 40)).status).toBe(201)
      await settle(opened.body.id, 'won')
      expect((await refund(payment, 60)).status).toBe(201)
      expect((await refund(payment, 0.01)).status).toBe(409)
    })

    it('refuses a dispute of what is already refunded', async () => {
      const payment = await capturedPayment(100)
      expect((await refund(payment, 70)).status).toBe(201)
      expect((await dispute(payment, 30.01)).status).toBe(409)
      expect((await dispute(payment, 30)).status).toBe(201)
    })

    it('keeps refunded + disputed within captured when both race', async () => {
      const payment = await capturedPayment(100)
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          index % 2 === 0 ? refund(payment, 25) : dispute(payment, 25),
        ),
      )
      const accepted = answers.filter((answer) => answer.status === 201)
      expect(accepted).toHaveLength(4)
      expect(answers.every((answer) => answer.status === 201 || answer.status === 409)).toBe(true)
      const after = await harness.api('GET', `/payments/${payment}`)
      const disputes = await Promise.all(
        answers
          .filter((answer) => answer.status === 201 && answer.body.id.startsWith('dp_'))
          .map((answer) => harness.api('GET', `/disputes/${answer.body.id}`)),
      )
      const disputed = disputes.reduce((sum, answer) => sum + answer.body.amount * 100, 0)
      expect(after.body.refunded_amount * 100 + disputed).toBe(10_000)
    })
  })
})
