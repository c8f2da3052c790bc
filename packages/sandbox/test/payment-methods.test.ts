import { encodeTestAmount, lookupErrorCode, type TestElement } from '@chargekit/errors'
import {
  chargeTypeListSchema,
  instrumentSchema,
  processorErrorBodySchema,
} from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ApiCaller,
  eventually,
  startTestSandbox,
  TestClock,
  type TestSandbox,
} from '../src/testing/index'
import { eventTypesOf } from './event-types'
import { onEachStore } from './store-under-test'

onEachStore({ embedded: 'without PostgreSQL' }, (freshStoreState) => {
  /**
   * MB WAY, Multibanco, Payshop and PayPal through the API: each method's whole flow and events, the
   * customer's answers (test helpers, the approval page, test phone numbers, deadlines), error
   * testing by amount, refundability, idempotent retries and who may call the helpers.
   */

  const otherAccount = { id: 'acct_other', key: 'sk_other' }

  const second = 1_000
  const minute = 60 * second
  const hour = 60 * minute
  const day = 24 * hour

  type Answer = 'approve' | 'decline' | 'pay' | 'expire'

  interface Method {
    chargeType: string
    channel: string
    label: string
    /** The instrument request besides `charge`. */
    details: Record<string, unknown>
    /** How the customer says yes. */
    approval: Answer
    refundable: boolean
    /** How long the customer has. */
    windowMs: number
    /** `redirect` of the pending instrument, `expires_at` aside. */
    redirect: { url: unknown; method: string | null; parameters: Record<string, unknown> }
    params: Record<string, unknown>
  }

  const methods: Method[] = [
    {
      chargeType: 'mbway',
      channel: 'mbway_mbway',
      label: 'MB WAY',
      details: { phone_number: '912345678' },
      approval: 'approve',
      refundable: true,
      windowMs: 5 * minute,
      redirect: { url: null, method: null, parameters: { phone_number: '91*****78' } },
      params: { phone_number: '91*****78', fingerprint: expect.stringMatching(/^[\w-]{32}$/) },
    },
    {
      chargeType: 'multibanco',
      channel: 'multibanco_multibanco',
      label: 'Multibanco',
      details: {},
      approval: 'pay',
      refundable: false,
      windowMs: 3 * day,
      redirect: {
        url: null,
        method: null,
        parameters: {
          entity: '21098',
          reference: expect.stringMatching(/^\d{9}$/),
          amount: 12.34,
          currency: 'EUR',
        },
      },
      params: {},
    },
    {
      chargeType: 'payshop_reference',
      channel: 'payshop_reference_payshop',
      label: 'Payshop reference',
      details: {},
      approval: 'pay',
      refundable: false,
      windowMs: 7 * day,
      redirect: {
        url: null,
        method: null,
        parameters: {
          reference: expect.stringMatching(/^\d{13}$/),
          amount: 12.34,
          currency: 'EUR',
        },
      },
      params: {},
    },
    {
      chargeType: 'paypal',
      channel: 'paypal_paypal',
      label: 'PayPal',
      details: {},
      approval: 'approve',
      refundable: true,
      windowMs: 3 * hour,
      redirect: {
        url: expect.stringContaining('/redirect?public_key='),
        method: 'GET',
        parameters: {},
      },
      params: {},
    },
  ]

  function methodOf(chargeType: string): Method {
    const method = methods.find((candidate) => candidate.chargeType === chargeType)
    if (method === undefined) throw new Error(`no method ${chargeType}`)
    return method
  }

  /**
   * Opens the approval page at `redirect.url` as the customer's browser does and submits the form
   * of the button labelled `button`, with the fields the page put in it.
   */
  async function submitApprovalPage(redirectUrl: string, button: string) {
    const page = await fetch(redirectUrl)
    expect(page.status).toBe(200)
    const html = await page.text()
    const form = [...html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/g)].find(
      (match) => match[2]?.includes(`>${button}</button>`),
    )
    if (form === undefined) throw new Error(`No "${button}" button on the page:\n${html}`)
    const fields = new URLSearchParams()
    for (const [, name, value] of (form[2] ?? '').matchAll(/name="([^"]+)" value="([^"]*)"/g)) {
      fields.set(name ?? '', value ?? '')
    }
    return fetch(new URL(form[1] ?? '', redirectUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    })
  }

  /**
   * A sandbox for the tests of one describe block, started before them and closed after them, with
   * a clock of its own: deadlines and the test phones' answers come when a test moves it past them.
   * The blocks run at once, and none moves another's time or settles another's payments.
   */
  function sandboxPerBlock() {
    const clock = new TestClock()
    let started: TestSandbox | undefined
    beforeAll(async () => {
      started = await startTestSandbox({
        state: freshStoreState,
        clock,
        accounts: [{ id: 'acct_sandbox', key: 'sk_sandbox' }, otherAccount],
      })
    })
    afterAll(() => started?.close())
    const sandbox = () => {
      if (started === undefined) throw new Error('The block’s sandbox has not started')
      return started
    }
    const harness: Pick<TestSandbox, 'eventsUrl' | 'sandbox' | 'createCharge' | 'as'> = {
      get eventsUrl() {
        return sandbox().eventsUrl
      },
      get sandbox() {
        return sandbox().sandbox
      },
      createCharge: (body) => sandbox().createCharge(body),
      as: (account) => sandbox().as(account),
    }
    const api: ApiCaller = (...request) => sandbox().api(...request)

    /** A confirmed 12.34 EUR charge of the method, unless `body` says otherwise. */
    async function chargeOf(method: Method, body: Record<string, unknown> = {}) {
      const answer = await harness.createCharge({
        charge_type: method.chargeType,
        amount: 12.34,
        ...body,
      })
      expect(answer.status, JSON.stringify(answer.body)).toBe(201)
      return answer.body.id as string
    }

    /** POST /v2/instruments with the method's details for `chargeId`. */
    function requestInstrument(method: Method, chargeId: string, headers = {}) {
      return api('POST', '/instruments', { charge: chargeId, ...method.details }, headers)
    }

    /** A charge of the method and its pending instrument. */
    async function pendingInstrument(method: Method, body: Record<string, unknown> = {}) {
      const chargeId = await chargeOf(method, body)
      const answer = await requestInstrument(method, chargeId)
      expect(answer.status, JSON.stringify(answer.body)).toBe(201)
      expect(answer.body.status).toBe('pending')
      return { chargeId, instrument: answer.body }
    }

    function answerAs(instrumentId: string, answer: Answer, caller = api, headers = {}) {
      return caller('POST', `/test/instruments/${instrumentId}/${answer}`, undefined, headers)
    }

    /** What the customer does to say yes: the helper, or PayPal's approval page. */
    async function approve(method: Method, instrument: { id: string; redirect: { url: string } }) {
      if (method.chargeType !== 'paypal') {
        const answer = await answerAs(instrument.id, method.approval)
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
        return
      }
      const answer = await submitApprovalPage(instrument.redirect.url, 'Approve payment')
      // Back to the shop's redirect_url, or the sandbox's result page when the charge has none.
      expect([200, 303]).toContain(answer.status)
    }

    const instrumentOf = async (id: string) => (await api('GET', `/instruments/${id}`)).body

    const paymentsOf = async (chargeId: string) =>
      (await api('GET', `/payments?charge=${chargeId}`)).body.collection

    /** Every event of the charge, oldest first. */
    async function eventsOf(chargeId: string) {
      const answer = await api('GET', `/events?charge=${chargeId}&per_page=100`)
      return [...answer.body.collection].reverse()
    }

    return {
      clock,
      harness,
      api,
      chargeOf,
      requestInstrument,
      pendingInstrument,
      answerAs,
      approve,
      instrumentOf,
      paymentsOf,
      eventsOf,
    }
  }

  const opening = ['charge.created', 'charge.confirmed', 'instrument.created', 'instrument.pending']

  describe.concurrent.each(methods)('$chargeType', (method) => {
    const {
      clock,
      harness,
      api,
      chargeOf,
      requestInstrument,
      pendingInstrument,
      answerAs,
      approve,
      instrumentOf,
      paymentsOf,
      eventsOf,
    } = sandboxPerBlock()

    it.sequential('waits for the customer, then authorizes, captures, refunds as the method allows and settles', async ({
      expect,
    }) => {
      const chargeId = await chargeOf(method)
      const charge = (await api('GET', `/charges/${chargeId}`)).body
      expect(charge).toMatchObject({
        charge_type: method.chargeType,
        charge_type_label: method.label,
        channels: [
          { label: method.channel, processor: method.channel.slice(method.chargeType.length + 1) },
        ],
        instrument_params: { captured_on_creation: true, recurring: false },
      })

      const created = await requestInstrument(method, chargeId)
      expect(created.status).toBe(201)
      const pending = instrumentSchema.parse(created.body)
      expect(pending).toMatchObject({
        status: 'pending',
        success: false,
        channel: { label: method.channel },
        charge: { id: chargeId, charge_type: method.chargeType, charge_type_label: method.label },
        params: method.params,
        redirect: {
          ...method.redirect,
          parameters: { ...method.redirect.parameters, expires_at: expect.any(String) },
        },
      })
      expect(Object.keys(pending.params).sort()).toEqual(Object.keys(method.params).sort())
      // The deadline the customer is shown is the method's window.
      const expiresAt = Date.parse(String(pending.redirect?.parameters?.expires_at))
      expect(expiresAt - Date.parse(pending.created_at)).toBe(method.windowMs)
      expect(await instrumentOf(pending.id)).toEqual(created.body)
      expect(await paymentsOf(chargeId)).toEqual([])

      await approve(method, created.body)
      const authorized = await instrumentOf(pending.id)
      expect(authorized).toMatchObject({
        status: 'authorized',
        success: true,
        redirect: null,
        failure_code: null,
        captured_amount: 12.34,
      })
      const [payment] = await paymentsOf(chargeId)
      expect(payment).toMatchObject({
        amount: 12.34,
        currency: 'EUR',
        status: 'success',
        success: true,
      })

      const events = await eventsOf(chargeId)
      expect(events.map((event) => event.type)).toEqual([
        ...opening,
        'instrument.authorized',
        'payment.success',
      ])
      // Each event carries the instrument as it stood: the pending one shows the customer's action.
      expect(events[3].instrument.redirect).toEqual(pending.redirect)
      expect(events[4].instrument).toMatchObject({ status: 'authorized', redirect: null })
      expect(events[5].payment.id).toBe(payment.id)

      const refund = await api('POST', `/payments/${payment.id}/refund`, { amount: 2.34 })
      const alias = await api('POST', '/refunds', { payment: payment.id, amount: 1 })
      if (method.refundable) {
        expect(refund.status).toBe(201)
        expect(refund.body).toMatchObject({ amount: 2.34, status: 'success' })
        expect(alias.status).toBe(201)
      } else {
        for (const refused of [refund, alias]) {
          expect(refused.status).toBe(409)
          expect(refused.body).toMatchObject({
            failure_code: '05.04.0000',
            failure_description: 'Feature Not Available',
            message: `${method.label} payments cannot be refunded through the API (payment ${payment.id}): return the money to the customer another way, such as a bank transfer`,
          })
        }
        expect((await api('GET', `/refunds?charge=${chargeId}`)).body.collection).toEqual([])
      }

      expect((await api('POST', '/test/settlements')).status).toBe(201)
      const settled = (await eventsOf(chargeId)).map((event) => event.type).slice(6)
      expect(settled).toEqual(
        method.refundable
          ? [
              'refund.success',
              'refund.success',
              'payment.settled',
              'refund.settled',
              'refund.settled',
              'instrument.settled',
            ]
          : ['payment.settled', 'instrument.settled'],
      )
    })

    it.sequential('expires now by the helper, and when its deadline passes', async ({ expect }) => {
      const byHelper = await pendingInstrument(method)
      const expired = await answerAs(byHelper.instrument.id, 'expire')
      expect(expired.status).toBe(200)
      expect(expired.body).toMatchObject({
        id: byHelper.instrument.id,
        status: 'invalid',
        success: false,
        redirect: null,
        failure_code: '03.00.0002',
        failure_description: 'Instrument Expired',
      })
      expect(await eventTypesOf(api, byHelper.chargeId)).toEqual([...opening, 'instrument.invalid'])
      // The charge takes a new attempt.
      expect((await requestInstrument(method, byHelper.chargeId)).body.status).toBe('pending')

      const byDeadline = await pendingInstrument(method)
      clock.advance(method.windowMs)
      await eventually(async () =>
        expect(await instrumentOf(byDeadline.instrument.id)).toMatchObject({
          status: 'invalid',
          failure_code: '03.00.0002',
        }),
      )
      expect(await eventTypesOf(api, byDeadline.chargeId)).toEqual([
        ...opening,
        'instrument.invalid',
      ])
      // Too late to answer.
      const late = await api(
        'POST',
        `/test/instruments/${byDeadline.instrument.id}/${method.approval}`,
      )
      expect(late.status).toBe(409)
    })

    it.sequential('fails each element the charge amount encodes', async ({ expect }) => {
      const code = '02.03.0000'
      const designation = lookupErrorCode(code)?.designation
      const coded = (element: TestElement, body: Record<string, unknown> = {}) =>
        api('POST', '/charges', {
          charge_type: method.chargeType,
          amount: encodeTestAmount(code, element),
          currency: 'EUR',
          events_url: harness.eventsUrl,
          ...body,
        })
      const expectDecline = (
        answer: { status: number; body: unknown },
        ids: Record<string, string>,
      ) => {
        expect(answer.status, JSON.stringify(answer.body)).toBe(402)
        expect(processorErrorBodySchema.parse(answer.body)).toEqual({
          message: 'Transaction Error',
          metadata: { failure_description: designation, ...ids },
          failure_code: code,
          failure_description: designation,
        })
      }

      const charge = await coded('charge')
      expectDecline(charge, { charge: charge.body.metadata.charge })
      expect(await eventTypesOf(api, charge.body.metadata.charge)).toEqual([
        'charge.created',
        'charge.error',
      ])

      const instrumentCharge = (await coded('instrument')).body.id
      const instrument = await requestInstrument(method, instrumentCharge)
      expectDecline(instrument, {
        charge: instrumentCharge,
        instrument: instrument.body.metadata.instrument,
      })
      expect(await instrumentOf(instrument.body.metadata.instrument)).toMatchObject({
        status: 'invalid',
        failure_code: code,
      })
      expect(await eventTypesOf(api, instrumentCharge)).toEqual([
        'charge.created',
        'charge.confirmed',
        'instrument.created',
        'instrument.invalid',
      ])

      // The customer approves; the capture on creation fails, the authorization stays open.
      const paymentCharge = (await coded('payment')).body.id
      const forPayment = (await requestInstrument(method, paymentCharge)).body
      await approve(method, forPayment)
      expect((await instrumentOf(forPayment.id)).status).toBe('authorized')
      const [failedPayment] = await paymentsOf(paymentCharge)
      expect(failedPayment).toMatchObject({ status: 'error', success: false, failure_code: code })
      expect((await eventTypesOf(api, paymentCharge)).slice(4)).toEqual([
        'instrument.authorized',
        'payment.error',
      ])

      const refundCharge = (await coded('refund')).body.id
      const forRefund = (await requestInstrument(method, refundCharge)).body
      await approve(method, forRefund)
      const [payment] = await paymentsOf(refundCharge)
      expect(payment.status).toBe('success')
      const refund = await api('POST', `/payments/${payment.id}/refund`, { amount: 1 })
      if (method.refundable) {
        expectDecline(refund, {
          charge: refundCharge,
          instrument: forRefund.id,
          payment: payment.id,
          refund: refund.body.metadata.refund,
        })
        expect((await eventTypesOf(api, refundCharge)).at(-1)).toBe('refund.error')
      } else {
        // Refused before any processor is asked: nothing to decline.
        expect(refund.status).toBe(409)
      }

      // A `.50` amount is not captured on creation unless asked, as on the card test channel.
      const reversalChargeBody = (await coded('reversal')).body
      expect(reversalChargeBody.instrument_params.captured_on_creation).toBe(false)
      const reversalCharge = reversalChargeBody.id
      const forReversal = (await requestInstrument(method, reversalCharge)).body
      await approve(method, forReversal)
      expect(await instrumentOf(forReversal.id)).toMatchObject({
        status: 'authorized',
        captured_amount: 0,
      })
      const reversal = await api('POST', `/instruments/${forReversal.id}/reversal`)
      expectDecline(reversal, {
        charge: reversalCharge,
        instrument: forReversal.id,
        reversal: reversal.body.metadata.reversal,
      })
      expect((await instrumentOf(forReversal.id)).status).toBe('authorized')
      expect((await eventTypesOf(api, reversalCharge)).at(-1)).toBe('reversal.error')
    })
  })

  // The other blocks share one sandbox and run one after another, beside the methods' blocks.
  describe.concurrent('customers, merchants and helpers', () => {
    const {
      clock,
      harness,
      api,
      chargeOf,
      requestInstrument,
      pendingInstrument,
      answerAs,
      instrumentOf,
      paymentsOf,
    } = sandboxPerBlock()

    describe.sequential('the customer declines', () => {
      it('in the MB WAY app: 03.00.0001, and the charge takes another attempt', async ({
        expect,
      }) => {
        const { chargeId, instrument } = await pendingInstrument(methodOf('mbway'))
        const declined = await answerAs(instrument.id, 'decline')
        expect(declined.status).toBe(200)
        expect(declined.body).toMatchObject({
          status: 'invalid',
          failure_code: '03.00.0001',
          failure_description: 'Processor Declined',
          redirect: null,
        })
        expect(await eventTypesOf(api, chargeId)).toEqual([...opening, 'instrument.invalid'])
        expect(await paymentsOf(chargeId)).toEqual([])
        const retry = await requestInstrument(methodOf('mbway'), chargeId)
        expect(retry.body).toMatchObject({ status: 'pending' })
        expect(retry.body.id).not.toBe(instrument.id)
      })

      it('on the PayPal approval page ("Cancel"): back to the shop, the instrument invalid', async ({
        expect,
      }) => {
        const paypal = methodOf('paypal')
        const { chargeId, instrument } = await pendingInstrument(paypal, {
          redirect_url: 'https://shop.example/orders/7',
        })
        const page = await (await fetch(instrument.redirect.url)).text()
        expect(page).toContain('<h1>PayPal approval</h1>')
        expect(page).toContain('12.34 EUR')
        const cancelled = await submitApprovalPage(instrument.redirect.url, 'Cancel')
        expect(cancelled.status).toBe(303)
        expect(cancelled.headers.get('location')).toMatch(/^https:\/\/shop\.example\/orders\/7\?/)
        expect(await instrumentOf(instrument.id)).toMatchObject({
          status: 'invalid',
          failure_code: '03.00.0001',
        })
        expect(await eventTypesOf(api, chargeId)).toEqual([...opening, 'instrument.invalid'])
        // The page is used up: opening it again goes back to the shop.
        const reopened = await fetch(instrument.redirect.url, { redirect: 'manual' })
        expect(reopened.status).toBe(303)
        expect(reopened.headers.get('location')).toMatch(/^https:\/\/shop\.example\/orders\/7\?/)
      })
    })

    describe.sequential('the merchant cancels a pending request', () => {
      it('with DELETE: invalid at once, and the customer can no longer answer', async ({
        expect,
      }) => {
        const { chargeId, instrument } = await pendingInstrument(methodOf('mbway'))
        expect((await api('DELETE', `/instruments/${instrument.id}`)).status).toBe(204)
        expect(await instrumentOf(instrument.id)).toMatchObject({
          status: 'invalid',
          redirect: null,
        })
        const late = await answerAs(instrument.id, 'approve')
        expect(late.status).toBe(409)
        expect(late.body.message).toBe(
          `Instrument ${instrument.id} is not waiting for the customer (status invalid)`,
        )
        expect(await eventTypesOf(api, chargeId)).toEqual([...opening, 'instrument.invalid'])
      })
    })

    describe.sequential('a restart of the sandbox', () => {
      it('keeps what each customer was asked: their answers still count, deadlines still pass', async ({
        expect,
      }) => {
        const state = await freshStoreState()
        const start = () => startTestSandbox({ clock, ...state.options })
        try {
          const first = await start()
          const firstApi = first.api
          const pendingOf = async (chargeType: string, details: Record<string, unknown> = {}) => {
            const charge = await firstApi('POST', '/charges', {
              charge_type: chargeType,
              amount: 12.34,
              currency: 'EUR',
              events_url: harness.eventsUrl,
            })
            const instrument = await firstApi('POST', '/instruments', {
              charge: charge.body.id,
              ...details,
            })
            expect(instrument.body.status).toBe('pending')
            return instrument.body
          }
          // Multibanco's deadline is 3 days away, PayPal's 3 hours, MB WAY's 5 minutes.
          const reference = await pendingOf('multibanco')
          const page = await pendingOf('paypal')
          const app = await pendingOf('mbway', { phone_number: '912345678' })
          await first.close()

          const second = await start()
          try {
            const api = second.api
            const paid = await api('POST', `/test/instruments/${reference.id}/pay`)
            expect(paid.body).toMatchObject({ status: 'authorized', captured_amount: 12.34 })
            // The approval page answers at the new address, with the token the first one made.
            const pageUrl = new URL(page.redirect.url)
            const approved = await submitApprovalPage(
              `${second.sandbox.url}${pageUrl.pathname}${pageUrl.search}`,
              'Approve payment',
            )
            expect(approved.status).toBe(200)
            expect((await api('GET', `/instruments/${page.id}`)).body.status).toBe('authorized')
            clock.advance(methodOf('mbway').windowMs)
            await eventually(async () =>
              expect((await api('GET', `/instruments/${app.id}`)).body).toMatchObject({
                status: 'invalid',
                failure_code: '03.00.0002',
              }),
            )
          } finally {
            await second.close()
          }
        } finally {
          await state.remove()
        }
      })
    })

    describe.sequential('MB WAY test phone numbers', () => {
      const mbway = methodOf('mbway')

      it('91000… approves by itself after 10 s: authorized, paid', async ({ expect }) => {
        const chargeId = await chargeOf(mbway)
        const created = await api('POST', '/instruments', {
          charge: chargeId,
          phone_number: '910001234',
        })
        expect(created.body.status).toBe('pending')
        clock.advance(10_000)
        await eventually(async () =>
          expect(await eventTypesOf(api, chargeId)).toEqual([
            ...opening,
            'instrument.authorized',
            'payment.success',
          ]),
        )
        const late = await answerAs(created.body.id, 'decline')
        expect(late.status).toBe(409)
        expect(late.body.message).toBe(
          `Instrument ${created.body.id} is not waiting for the customer (status authorized)`,
        )
      })

      it('92000… refuses by itself: 03.00.0001', async ({ expect }) => {
        const chargeId = await chargeOf(mbway)
        const created = await api('POST', '/instruments', {
          charge: chargeId,
          phone_number: '920001234',
        })
        expect(created.body.status).toBe('pending')
        clock.advance(10_000)
        await eventually(async () =>
          expect(await instrumentOf(created.body.id)).toMatchObject({
            status: 'invalid',
            failure_code: '03.00.0001',
          }),
        )
        expect(await eventTypesOf(api, chargeId)).toEqual([...opening, 'instrument.invalid'])
      })
    })

    describe.sequential('MB WAY phone numbers', () => {
      const mbway = methodOf('mbway')

      it('are read with the country code, spaces or hyphens, and fingerprinted as the same phone', async ({
        expect,
      }) => {
        const fingerprints = new Set<string>()
        for (const phone of [
          '912345678',
          '+351 912 345 678',
          '00351912345678',
          '351 912-345-678',
        ]) {
          const created = await api('POST', '/instruments', {
            charge: await chargeOf(mbway),
            phone_number: phone,
          })
          expect(created.status, phone).toBe(201)
          expect(created.body.params.phone_number).toBe('91*****78')
          expect(created.body.redirect.parameters.phone_number).toBe('91*****78')
          fingerprints.add(created.body.params.fingerprint)
        }
        expect(fingerprints.size).toBe(1)
        const other = await api('POST', '/instruments', {
          charge: await chargeOf(mbway),
          phone_number: '912345679',
        })
        expect(fingerprints.has(other.body.params.fingerprint)).toBe(false)
        // Never the whole number.
        expect(JSON.stringify(other.body)).not.toContain('912345679')
      })

      it('must be Portuguese mobile numbers: a 400 naming phone_number, and nothing created', async ({
        expect,
      }) => {
        const chargeId = await chargeOf(mbway)
        for (const phone of [
          '812345678',
          '91234567',
          '9123456789',
          '+44 7700 900123',
          '91234567a',
          '',
          912345678,
        ]) {
          const refused = await api('POST', '/instruments', {
            charge: chargeId,
            phone_number: phone,
          })
          expect(refused.status, String(phone)).toBe(400)
          expect(refused.body.failure_code).toBe('01.01.0000')
          expect(Object.keys(refused.body.parameters), String(phone)).toEqual(['phone_number'])
          if (typeof phone === 'string') {
            expect(refused.body.parameters.phone_number).toEqual([
              'Expected a Portuguese mobile number registered in MB WAY, where the payment request goes: 9 digits starting with 9, such as 912345678 or +351 912 345 678',
            ])
          }
        }
        const missing = await api('POST', '/instruments', { charge: chargeId })
        expect(Object.keys(missing.body.parameters)).toEqual(['phone_number'])
        // A card is not what an MB WAY charge takes.
        const card = await api('POST', '/instruments', {
          charge: chargeId,
          name: 'Ada',
          number: '4242424242424242',
          expiration_month: 12,
          expiration_year: 2040,
          cvc: '123',
        })
        expect(Object.keys(card.body.parameters)).toEqual(['phone_number'])
        expect(await eventTypesOf(api, chargeId)).toEqual(['charge.created', 'charge.confirmed'])
      })
    })

    describe.sequential('the customer test helpers', () => {
      it('refuse an answer the instrument does not wait for, saying which it does (409)', async ({
        expect,
      }) => {
        const mbway = await pendingInstrument(methodOf('mbway'))
        const pay = await answerAs(mbway.instrument.id, 'pay')
        expect(pay.status).toBe(409)
        expect(pay.body).toEqual({
          message: `Instrument ${mbway.instrument.id} has no payment reference to pay: the customer approves or declines it (POST /v2/test/instruments/${mbway.instrument.id}/approve or /decline)`,
          failure_code: '05.04.0001',
          failure_description: lookupErrorCode('05.04.0001')?.designation,
        })
        const multibanco = await pendingInstrument(methodOf('multibanco'))
        for (const answer of ['approve', 'decline'] as const) {
          const refused = await answerAs(multibanco.instrument.id, answer)
          expect(refused.status).toBe(409)
          expect(refused.body.message).toBe(
            `Instrument ${multibanco.instrument.id} waits for its payment reference to be paid: use pay (POST /v2/test/instruments/${multibanco.instrument.id}/pay), or expire`,
          )
        }
        // Neither changed anything.
        expect((await instrumentOf(mbway.instrument.id)).status).toBe('pending')
        expect(await eventTypesOf(api, multibanco.chargeId)).toEqual(opening)

        // An authorized card waits for nobody.
        const card = await harness.createCharge()
        const authorized = await api('POST', '/instruments', {
          charge: card.body.id,
          name: 'Ada',
          number: '4242424242424242',
          expiration_month: 12,
          expiration_year: 2040,
          cvc: '123',
        })
        const expire = await answerAs(authorized.body.id, 'expire')
        expect(expire.status).toBe(409)
        expect(expire.body.message).toBe(
          `Instrument ${authorized.body.id} is not waiting for the customer (status authorized)`,
        )
      })

      it('replay an answer retried with its Idempotency-Key; answering again without it is a 409', async ({
        expect,
      }) => {
        const { chargeId, instrument } = await pendingInstrument(methodOf('paypal'))
        const key = { 'idempotency-key': `approve-${instrument.id}` }
        const first = await answerAs(instrument.id, 'approve', api, key)
        const retried = await answerAs(instrument.id, 'approve', api, key)
        expect(first.status).toBe(200)
        expect(retried.status).toBe(200)
        expect(retried.headers.get('idempotent-replayed')).toBe('true')
        expect(retried.body).toEqual(first.body)
        expect(await eventTypesOf(api, chargeId)).toEqual([
          ...opening,
          'instrument.authorized',
          'payment.success',
        ])
        const again = await answerAs(instrument.id, 'approve')
        expect(again.status).toBe(409)
        // The same key on another helper is another request.
        const clash = await answerAs(instrument.id, 'decline', api, key)
        expect(clash.status).toBe(409)
        expect(clash.body.failure_code).toBe('03.04.0000')
      })

      it('answer 404 for an unknown instrument or another account’s', async ({ expect }) => {
        for (const answer of ['approve', 'decline', 'pay', 'expire'] as const) {
          const missing = await answerAs('in_missing', answer)
          expect(missing.status).toBe(404)
          expect(missing.body.message).toMatch(/in_missing/)
        }
        const { instrument } = await pendingInstrument(methodOf('mbway'))
        const stranger = await answerAs(instrument.id, 'approve', harness.as(otherAccount))
        expect(stranger.status).toBe(404)
        expect((await instrumentOf(instrument.id)).status).toBe('pending')
      })

      it('take the private key: the public key is refused (403), even for a pending instrument', async ({
        expect,
      }) => {
        const publicKey = harness.as({
          id: String(harness.sandbox.accounts[0]?.publicKey),
          key: '',
        })
        // The browser may create the instrument…
        const chargeId = await chargeOf(methodOf('multibanco'))
        const created = await publicKey('POST', '/instruments', { charge: chargeId })
        expect(created.status).toBe(201)
        // …but not pay it.
        for (const answer of ['approve', 'decline', 'pay', 'expire'] as const) {
          const refused = await answerAs(created.body.id, answer, publicKey)
          expect(refused.status).toBe(403)
          expect(refused.body.failure_code).toBe('05.03.0000')
        }
        expect((await instrumentOf(created.body.id)).status).toBe('pending')
      })
    })

    describe.sequential('instrument requests', () => {
      it('replay a retried MB WAY request with its Idempotency-Key: one instrument, one notification', async ({
        expect,
      }) => {
        const mbway = methodOf('mbway')
        const chargeId = await chargeOf(mbway)
        const key = { 'idempotency-key': `instrument-${chargeId}` }
        const first = await requestInstrument(mbway, chargeId, key)
        const retried = await requestInstrument(mbway, chargeId, key)
        expect(first.status).toBe(201)
        expect(retried.status).toBe(201)
        expect(retried.headers.get('idempotent-replayed')).toBe('true')
        expect(retried.body).toEqual(first.body)
        expect(await eventTypesOf(api, chargeId)).toEqual(opening)
        // Without the key, the retry is a second instrument for a charge that has one.
        const duplicate = await requestInstrument(mbway, chargeId)
        expect(duplicate.status).toBe(409)
        expect(duplicate.body.failure_code).toBe('03.04.0000')
      })

      it('naming a charge that does not exist answer 404, whatever the method; naming none, 400', async ({
        expect,
      }) => {
        for (const body of [
          { charge: 'ch_mistyped', phone_number: '912345678' },
          { charge: 'ch_mistyped' },
        ]) {
          const missing = await api('POST', '/instruments', body)
          expect(missing.status, JSON.stringify(body)).toBe(404)
          expect(missing.body.message).toContain('ch_mistyped')
        }
        const nameless = await api('POST', '/instruments', { phone_number: '' })
        expect(nameless.status).toBe(400)
        expect(nameless.body.parameters).toHaveProperty('charge')
      })

      it('are drawn from the JSON Schema of GET /v2/charges/types, for every method', async ({
        expect,
      }) => {
        const { collection } = chargeTypeListSchema.parse((await api('GET', '/charges/types')).body)
        for (const method of methods) {
          const described = collection.find((type) => type.id === method.chargeType)
          expect(described, method.chargeType).toMatchObject({
            label: method.label,
            recurring: false,
          })
          const schema = described?.schema as unknown as JsonObjectSchema
          // What the customer gives; the page adds the charge itself.
          expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(method.details).sort())
          expect(schema.properties).not.toHaveProperty('charge')
          // A value for each field from what the schema says (its first example), nothing else.
          const drawn = Object.fromEntries(
            Object.entries(schema.properties).map(([field, property]) => [
              field,
              property.examples?.[0],
            ]),
          )
          const accepted = await api('POST', '/instruments', {
            ...drawn,
            charge: await chargeOf(method),
          })
          expect(accepted.status, `${method.chargeType}: ${JSON.stringify(accepted.body)}`).toBe(
            201,
          )
          // Every example the schema gives passes its own pattern.
          for (const property of Object.values(schema.properties)) {
            for (const example of property.examples ?? []) {
              if (property.pattern !== undefined)
                expect(example).toMatch(new RegExp(property.pattern))
            }
          }
        }
      })
    })
  })

  interface JsonObjectSchema {
    properties: Record<string, { type: string; pattern?: string; examples?: unknown[] }>
    required?: string[]
  }
})
