import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { challengeForm } from '../../../scripts/challenge-form'
import {
  eventually,
  startTestSandbox,
  TestClock,
  type TestSandbox,
  testCard,
} from '../src/testing/index'
import { eventTypesOf } from './event-types'
import { onEachStore } from './store-under-test'

onEachStore({ embedded: 'without PostgreSQL' }, (freshStoreState) => {
  /** The acquirer's confirmations (2 s) and settlements (a day) come when the test moves it. */
  const clock = new TestClock()
  const second = 1_000
  const day = 24 * 60 * 60 * second
  let harness: TestSandbox

  beforeAll(async () => {
    harness = await startTestSandbox({ state: freshStoreState, clock })
  })
  afterAll(() => harness.close())

  async function threeDsInstrument(body: Record<string, unknown> = {}) {
    const charge = await harness.api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 49.9,
      currency: 'EUR',
      events_url: harness.eventsUrl,
      channels: ['card_onetime_simulated_acquirer'],
      instrument_params: { enable3ds: true },
      ...body,
    })
    const instrument = await harness.api('POST', '/instruments', testCard(charge.body.id))
    expect(instrument.status).toBe(201)
    return { chargeId: charge.body.id as string, instrument: instrument.body }
  }

  /** Posts to the page's form target, as the page's form would. */
  function complete(
    action: string,
    form: Record<string, string>,
    type = 'application/x-www-form-urlencoded',
  ) {
    return fetch(action, {
      method: 'POST',
      headers: { 'content-type': type },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    })
  }

  describe('3-D Secure with the simulated acquirer', () => {
    it('leaves the instrument pending with a redirect to a sandbox page', async () => {
      const { chargeId, instrument } = await threeDsInstrument()
      expect(instrument).toMatchObject({
        status: 'pending',
        success: false,
        params: { enable3ds: true },
      })
      expect(instrument.redirect.method).toBe('GET')
      const url = new URL(instrument.redirect.url)
      expect(url.origin).toBe(harness.sandbox.url)
      expect(url.pathname).toBe(`/v2/instruments/${instrument.id}/redirect`)
      expect(url.searchParams.get('public_key')).toBe('pk_sandbox')
      // The page's form carries the challenge's unguessable token.
      expect((await challengeForm(instrument.redirect.url)).token.length).toBeGreaterThanOrEqual(32)
      // Enabling 3DS is a risk rule: instrument.risk, then pending.
      expect(await eventTypesOf(harness.api, chargeId)).toEqual([
        'charge.created',
        'charge.confirmed',
        'instrument.created',
        'instrument.risk',
        'instrument.pending',
      ])

      const page = await fetch(instrument.redirect.url)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toContain('text/html')
      expect(page.headers.get('referrer-policy')).toBe('no-referrer')
      expect(page.headers.get('cache-control')).toBe('no-store')
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
      const html = await page.text()
      expect(html).toContain('49.9 EUR')
      expect(html).toContain('•••• 4242')
      expect(html).toContain('value="authorize"')
      expect(html).toContain('value="fail"')
      expect(html).not.toContain('4242424242424242')
    })

    it('refuses the page without the public key, and the form without the right token', async () => {
      const { instrument } = await threeDsInstrument()
      const url = new URL(instrument.redirect.url)
      expect(url.searchParams.get('public_key')).toBe('pk_sandbox')
      expect((await fetch(`${url.origin}${url.pathname}`)).status).toBe(404)
      expect((await fetch(`${url.origin}${url.pathname}?public_key=pk_wrong`)).status).toBe(404)
      const { action } = await challengeForm(instrument.redirect.url)
      const forged = await complete(action, { token: 'wrong', outcome: 'authorize' })
      expect(forged.status).toBe(404)
      const still = await harness.api('GET', `/instruments/${instrument.id}`)
      expect(still.body.status).toBe('pending')
    })

    it('refuses malformed or oversized forms', async () => {
      const { instrument } = await threeDsInstrument()
      const { action, token } = await challengeForm(instrument.redirect.url)
      expect((await complete(action, { token, outcome: 'maybe' })).status).toBe(400)
      expect((await complete(action, { token, outcome: 'authorize' }, 'text/plain')).status).toBe(
        400,
      )
      const huge = await complete(action, {
        token,
        outcome: 'authorize',
        pad: 'x'.repeat(5000),
      })
      expect(huge.status).toBe(413)
      expect((await harness.api('GET', `/instruments/${instrument.id}`)).body.status).toBe(
        'pending',
      )
    })

    it('fails the instrument when the customer fails the challenge', async () => {
      const { chargeId, instrument } = await threeDsInstrument()
      const { action, token } = await challengeForm(instrument.redirect.url)
      const answer = await complete(action, { token, outcome: 'fail' })
      expect(answer.status).toBe(200)
      expect(await answer.text()).toContain('Verification failed')
      const failed = await harness.api('GET', `/instruments/${instrument.id}`)
      expect(failed.body).toMatchObject({
        status: 'invalid',
        redirect: null,
        failure_code: '06.01.0000',
        failure_description: '3DS Error',
      })
      expect((await eventTypesOf(harness.api, chargeId)).at(-1)).toBe('instrument.invalid')
      // The challenge is used up: the link now shows the result, the form is refused.
      const again = await fetch(instrument.redirect.url)
      expect(again.status).toBe(200)
      expect(await again.text()).toContain('Verification failed')
      expect((await complete(action, { token, outcome: 'authorize' })).status).toBe(404)
    })

    it('authorizes, sends the customer back, then the acquirer confirms and settles', async () => {
      const { chargeId, instrument } = await threeDsInstrument({
        redirect_url: 'https://shop.example/orders/7/return',
      })
      const { action, token } = await challengeForm(instrument.redirect.url)
      const answer = await complete(action, { token, outcome: 'authorize' })
      expect(answer.status).toBe(303)
      expect(answer.headers.get('location')).toBe(
        `https://shop.example/orders/7/return?instrument=${instrument.id}`,
      )
      const authorized = await harness.api('GET', `/instruments/${instrument.id}`)
      expect(authorized.body).toMatchObject({ status: 'authorized', redirect: null })
      // The capture is confirmed 2 s later and settled a day after that: a day passes per look.
      await eventually(async () => {
        clock.advance(day)
        expect(await eventTypesOf(harness.api, chargeId)).toEqual([
          'charge.created',
          'charge.confirmed',
          'instrument.created',
          'instrument.risk',
          'instrument.pending',
          'instrument.authorized',
          'payment.pending',
          'payment.success',
          'payment.settled',
          'instrument.settled',
        ])
      })
      const payment = (await harness.api('GET', `/payments?charge=${chargeId}`)).body.collection[0]
      expect(payment).toMatchObject({ status: 'success', amount: 49.9 })
      expect(payment.settled_at).toEqual(expect.any(String))
    })
  })

  describe('asynchronous answers', () => {
    it('keeps refunds pending until the acquirer confirms them', async () => {
      const charge = await harness.api('POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 30,
        currency: 'USD',
        events_url: harness.eventsUrl,
        channels: ['card_onetime_simulated_acquirer'],
      })
      await harness.api('POST', '/instruments', testCard(charge.body.id))
      const payment = await eventually(async () => {
        clock.advance(2 * second)
        const listed = (await harness.api('GET', `/payments?charge=${charge.body.id}`)).body
          .collection[0]
        expect(listed.status).toBe('success')
        return listed
      })
      const refund = await harness.api('POST', `/payments/${payment.id}/refund`, { amount: 10 })
      expect(refund.status).toBe(201)
      expect(refund.body.status).toBe('pending')
      await eventually(async () => {
        clock.advance(2 * second)
        const stored = await harness.api('GET', `/refunds/${refund.body.id}`)
        expect(stored.body.status).toBe('success')
        expect((await harness.api('GET', `/payments/${payment.id}`)).body.refunded_amount).toBe(10)
      })
    })
  })
})
