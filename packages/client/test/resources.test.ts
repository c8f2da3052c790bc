import type { TestSandbox } from '@chargekit/sandbox/testing'
import { isEventOfType } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChargekitClient, type Event, NotFoundError, VERSION } from '../src/index'
import { authorize, capture, card, chargeParams, orderId } from './support/flows'
import { startRecordingServer } from './support/recording-server'
import { onEachTransport, startClientSandbox } from './support/sandbox'

onEachTransport(({ testClient }) => {
  let env: TestSandbox
  let client: ChargekitClient

  beforeAll(async () => {
    env = await startClientSandbox()
    client = testClient(env.sandbox.url)
  })
  afterAll(() => env.close())

  describe('charges', () => {
    it('creates, retrieves and lists a charge', async () => {
      const order = orderId()
      const created = await client.charges.create(
        chargeParams(env.eventsUrl, {
          amount: 10.5,
          currency: 'EUR',
          metadata: { order_id: order, gift: true },
          redirect_url: 'https://shop.example.com/thanks',
        }),
      )
      expect(created).toMatchObject({
        charge_type: 'card_onetime',
        amount: 10.5,
        currency: 'EUR',
        confirmed: true,
        metadata: { order_id: order, gift: true },
        redirect_url: 'https://shop.example.com/thanks',
      })
      expect(created.id).toMatch(/^ch_/)
      // The sandbox records what the client sent as User-Agent.
      expect(created.request_log.user_agent).toBe(`chargekit-client/${VERSION}`)

      expect(await client.charges.retrieve(created.id)).toEqual(created)
      const page = await client.charges.list({ per_page: 5 })
      expect(page.collection[0]?.id).toBe(created.id)
      expect(page.pagination).toMatchObject({ page: 1, per_page: 5 })
    })

    it('lists the charges whose metadata has every given value, compared as text', async () => {
      const order = orderId()
      const [gift, plain] = await Promise.all([
        client.charges.create(
          chargeParams(env.eventsUrl, { metadata: { order_id: order, gift: true, count: 3 } }),
        ),
        client.charges.create(chargeParams(env.eventsUrl, { metadata: { order_id: order } })),
      ])
      const ids = async (metadata: Record<string, string>) =>
        (await client.charges.list({ metadata }).toArray({ limit: 10 })).map((charge) => charge.id)
      expect(await ids({ order_id: order })).toEqual([plain.id, gift.id])
      expect(await ids({ order_id: order, gift: 'true', count: '3' })).toEqual([gift.id])
      expect(await ids({ order_id: order, gift: 'false' })).toEqual([])
      const page = await client.charges.list({ metadata: { order_id: order } })
      expect(page.filters).toEqual({ metadata: { order_id: order } })
    })
  })

  describe('instruments', () => {
    it('creates and retrieves an authorized instrument', async () => {
      const { charge, instrument } = await authorize(client, env.eventsUrl)
      expect(instrument).toMatchObject({
        status: 'authorized',
        success: true,
        charge: { id: charge.id, charge_type: charge.charge_type },
        last_payment: null,
        used: false,
      })
      expect(instrument.params.last_4_digits).toBe(card.number.slice(-4))
      expect(await client.instruments.retrieve(instrument.id)).toEqual(instrument)
    })

    it('reverses an uncaptured authorization', async () => {
      const { charge, instrument } = await authorize(client, env.eventsUrl)
      const reversal = await client.instruments.reverse(instrument.id)
      expect(reversal).toMatchObject({
        instrument: instrument.id,
        charge: charge.id,
        success: true,
        amount: charge.amount,
      })
      expect(await client.reversals.retrieve(reversal.id)).toEqual(reversal)
      expect((await client.instruments.retrieve(instrument.id)).status).toBe('invalid')
    })
  })

  describe('payments and refunds', () => {
    it('captures, retrieves, lists and refunds a payment', async () => {
      const { instrument, payment } = await capture(client, env.eventsUrl, { amount: 80 })
      expect(payment).toMatchObject({
        instrument: { id: instrument.id },
        amount: 80,
        success: true,
        status: 'success',
      })
      expect(await client.payments.retrieve(payment.id)).toEqual(payment)
      expect((await client.payments.list({ per_page: 1 })).collection[0]?.id).toBe(payment.id)

      const refund = await client.payments.refund(payment.id, {
        amount: 30,
        description: 'Returned',
      })
      expect(refund).toMatchObject({ payment: payment.id, amount: 30, success: true })
      expect(await client.refunds.retrieve(refund.id)).toEqual(refund)
      expect((await client.payments.retrieve(payment.id)).refunds).toEqual([
        { id: refund.id, amount: 30, success: true },
      ])
    })
  })

  describe('payment filters', () => {
    it('lists only the payments of one charge or of one instrument', async () => {
      const first = await capture(client, env.eventsUrl)
      const second = await capture(client, env.eventsUrl)
      const ofCharge = await client.payments.list({ charge: first.charge.id })
      expect(ofCharge.collection.map((payment) => payment.id)).toEqual([first.payment.id])
      expect(ofCharge.filters).toEqual({ charge: first.charge.id })
      const ofInstrument = await client.payments.list({ instrument: second.instrument.id })
      expect(ofInstrument.collection.map((payment) => payment.id)).toEqual([second.payment.id])
    })
  })

  describe('lists of instruments, refunds, reversals, disputes and settlements', () => {
    it('lists each kind with its filters, newest first', async () => {
      const ids = (page: { collection: { id: string }[] }) => page.collection.map(({ id }) => id)
      const { charge, instrument, payment } = await capture(client, env.eventsUrl, { amount: 50 })
      const held = await authorize(client, env.eventsUrl)
      const refund = await client.payments.refund(payment.id, { amount: 5 })
      const dispute = await client.testHelpers.dispute(payment.id, { amount: 5 })
      const reversal = await client.instruments.reverse(held.instrument.id)
      const settlement = await client.testHelpers.settle()

      expect(ids(await client.instruments.list({ charge: charge.id }))).toEqual([instrument.id])
      // A reversal invalidates the instrument it voided.
      const invalid = await client.instruments.list({ charge: held.charge.id, status: 'invalid' })
      expect(ids(invalid)).toEqual([held.instrument.id])
      expect(invalid.filters).toEqual({ charge: held.charge.id, status: 'invalid' })
      expect(ids(await client.instruments.list({ charge: charge.id, status: 'invalid' }))).toEqual(
        [],
      )
      expect(ids(await client.refunds.list({ payment: payment.id }))).toEqual([refund.id])
      expect(refund.status).toBe('success')
      expect(ids(await client.refunds.list({ charge: charge.id, status: 'success' }))).toEqual([
        refund.id,
      ])
      expect(ids(await client.refunds.list({ charge: charge.id, status: 'error' }))).toEqual([])
      expect(ids(await client.refunds.list({ charge: held.charge.id }))).toEqual([])
      expect(ids(await client.reversals.list({ instrument: held.instrument.id }))).toEqual([
        reversal.id,
      ])
      expect(ids(await client.reversals.list({ charge: charge.id }))).toEqual([])
      expect(ids(await client.disputes.list({ charge: charge.id, status: 'open' }))).toEqual([
        dispute.id,
      ])
      expect(ids(await client.disputes.list({ payment: payment.id, status: 'won' }))).toEqual([])
      const settlements = await client.settlements.list({ per_page: 1 })
      expect(ids(settlements)).toEqual([settlement.id])
      expect(settlements.pagination.per_page).toBe(1)
    })

    it('rejects a filter the sandbox does not take with its 400 naming it', async () => {
      const wrong = { instrument: 'in_x' } as Parameters<typeof client.disputes.list>[0]
      await expect(client.disputes.list(wrong)).rejects.toMatchObject({
        status: 400,
        parameters: { instrument: [expect.stringContaining('payment, charge, status')] },
      })
    })
  })

  describe('withResponse()', () => {
    it('gives the body with its status, headers, request id and whether it was replayed', async () => {
      const params = chargeParams(env.eventsUrl, { metadata: { order_id: orderId('replay') } })
      const idempotencyKey = `key-${orderId('replay')}`
      const first = await client.charges.create(params, { idempotencyKey }).withResponse()
      expect(first.status).toBe(201)
      expect(first.requestId).toMatch(/^req_/)
      expect(first.headers.get('content-type')).toMatch(/^application\/json/)
      expect(first.idempotentReplayed).toBe(false)
      expect(first.data.id).toMatch(/^ch_/)

      const again = await client.charges.create(params, { idempotencyKey }).withResponse()
      expect(again.idempotentReplayed).toBe(true)
      expect(again.data).toEqual(first.data)
      expect(again.requestId).not.toBe(first.requestId)

      // A call awaited both ways is sent once and resolves to the same body.
      const retrieval = client.charges.retrieve(first.data.id)
      const [body, answer] = await Promise.all([retrieval, retrieval.withResponse()])
      expect(answer.data).toBe(body)
      expect(answer).toMatchObject({ status: 200, idempotentReplayed: false })

      const types = await client.charges.types().withResponse()
      expect(Array.isArray(types.data)).toBe(true)
      expect(types.status).toBe(200)
    })

    it('gives a list’s first page with its response, fetched once, still iterable', async () => {
      const list = client.charges.list({ per_page: 1 })
      const [page, answer] = await Promise.all([list, list.withResponse()])
      expect(answer.data).toBe(page)
      expect(answer.status).toBe(200)
      expect(answer.requestId).toMatch(/^req_/)
      expect(answer.data.pagination.per_page).toBe(1)
      const next = await answer.data.nextPage()
      expect(next?.pagination.page).toBe(2)
    })

    it('rejects with the typed error, and for bad arguments before sending', async () => {
      await expect(client.refunds.retrieve('re_missing').withResponse()).rejects.toBeInstanceOf(
        NotFoundError,
      )
      await expect(client.disputes.retrieve('').withResponse()).rejects.toThrow(
        'disputes.retrieve: id must be a non-empty string',
      )
    })
  })

  describe('events', () => {
    it('retrieves, lists, redelivers and dismisses events', async () => {
      const { charge, payment } = await capture(client, env.eventsUrl)
      const page = await client.events.list({ charge: charge.id, type: 'payment.success' })
      expect(page.collection).toHaveLength(1)
      const listed = page.collection[0] as Event
      const event = await client.events.retrieve(listed.id)
      expect(event.id).toBe(listed.id)
      if (isEventOfType(event, 'payment.success')) {
        // Narrowed by type: a payment.success event always carries its payment.
        expect(event.payment.id).toBe(payment.id)
      } else {
        throw new Error(`expected a payment.success event, got ${event.type}`)
      }

      const redelivered = await client.events.redeliver(event.id)
      expect(redelivered.id).toBe(event.id)
      expect(redelivered.retries_log.length).toBeGreaterThan(event.retries_log.length)

      const dismissed = await client.events.dismiss(event.id)
      expect(dismissed.dismissed_at).not.toBeNull()
      const stillOpen = await client.events.list({ charge: charge.id, dismissed: false })
      expect(stillOpen.collection.map((item) => item.id)).not.toContain(event.id)
    })

    it('filters by several types and by charge metadata', async () => {
      const order = orderId('meta')
      const { charge } = await capture(client, env.eventsUrl, { metadata: { order_id: order } })
      const page = await client.events.list({
        metadata: { order_id: order },
        type: ['charge.created', 'payment.success'],
      })
      expect(page.collection.map((event) => event.type).sort()).toEqual([
        'charge.created',
        'payment.success',
      ])
      expect(page.collection.every((event) => event.charge?.id === charge.id)).toBe(true)
    })
  })

  describe('test helpers', () => {
    it('lists the recent requests with the integration warnings the sandbox found', async () => {
      const lenient = await client.request<{ id: string }>({
        method: 'POST',
        path: '/charges/',
        body: { ...chargeParams(env.eventsUrl), amount: '10.50', colour: 'blue' },
      })
      const [recorded] = (await client.testHelpers.listRequests({ per_page: 5 })).collection.filter(
        (request) => request.path === '/v2/charges/',
      )
      expect(recorded).toMatchObject({ method: 'POST', status: 201, warnings_omitted: 0 })
      expect(recorded?.warnings.map((warning) => warning.code).sort()).toEqual([
        'numeric_string',
        'trailing_slash',
        'unknown_field',
      ])
      expect(recorded?.warnings.find((warning) => warning.code === 'unknown_field')?.field).toBe(
        'colour',
      )
      expect(lenient.id).toMatch(/^ch_/)
    })

    it('settles, disputes and settles a dispute', async () => {
      const { payment } = await capture(client, env.eventsUrl, { amount: 60 })
      const settlement = await client.testHelpers.settle()
      expect(settlement.payments).toContain(payment.id)
      expect(await client.settlements.retrieve(settlement.id)).toEqual(settlement)

      const dispute = await client.testHelpers.dispute(payment.id, { amount: 20, reason: 'fraud' })
      expect(dispute).toMatchObject({ payment: payment.id, amount: 20, status: 'open' })
      expect(await client.disputes.retrieve(dispute.id)).toEqual(dispute)
      const settled = await client.testHelpers.settleDispute(dispute.id, { outcome: 'won' })
      expect(settled).toMatchObject({ id: dispute.id, status: 'won' })
      expect(await client.disputes.retrieve(dispute.id)).toEqual(settled)
    })
  })

  describe('arguments', () => {
    it('rejects a missing id or body with a message naming it, before sending anything', async () => {
      await expect(client.charges.retrieve('')).rejects.toThrow(
        /charges\.retrieve: id must be a non-empty string such as "ch_…"/,
      )
      await expect(
        client.payments.refund(undefined as unknown as string, { amount: 1 }),
      ).rejects.toThrow(/payments\.refund: id must be a non-empty string/)
      await expect(client.instruments.create(null as never)).rejects.toThrow(
        /instruments\.create: params must be an object/,
      )
      await expect(client.charges.retrieve('ch_1', { signal: {} as AbortSignal })).rejects.toThrow(
        /request options: signal must be an AbortSignal/,
      )
      await expect(client.charges.retrieve('ch_1', { timeoutMs: 0 })).rejects.toThrow(
        /request options: timeoutMs must be a whole number/,
      )
      await expect(
        client.charges.create(chargeParams(env.eventsUrl), { idempotencyKey: 'has space' }),
      ).rejects.toThrow(/idempotencyKey must be 1 to 255 visible ASCII characters/)
    })

    it.each(['.', '..'])('rejects the id %j, which a URL would read as a path step', async (id) => {
      await expect(client.charges.retrieve(id)).rejects.toThrow(
        `charges.retrieve: id must be an id such as "ch_…", not "${id}", which a URL reads as a path step.`,
      )
      await expect(client.payments.refund(id, { amount: 1 })).rejects.toThrow(
        /^payments\.refund: id must be an id such as "pa_…"/,
      )
      await expect(client.testHelpers.dispute(id)).rejects.toThrow(
        /^testHelpers\.dispute: paymentId must be an id such as "pa_…"/,
      )
    })

    it('rejects unknown request options, naming the valid ones, before sending anything', async () => {
      const server = await startRecordingServer(() => ({ status: 500 }))
      try {
        const recorded = testClient(server.url)
        await expect(
          recorded.charges.create(chargeParams(env.eventsUrl), {
            idempotency_key: 'order-1',
          } as never),
        ).rejects.toThrow(
          'request options: unknown option "idempotency_key" (did you mean idempotencyKey?); the valid options are signal, idempotencyKey, timeoutMs, deadlineMs, maxRetries, validate.',
        )
        await expect(recorded.charges.retrieve('ch_1', { timeout: 5000 } as never)).rejects.toThrow(
          /request options: unknown option "timeout" \(did you mean timeoutMs\?\)/,
        )
        await expect(
          recorded.events.list({}, 'fast' as never).then((page) => page),
        ).rejects.toThrow(
          /request options: expected an object such as \{ signal, idempotencyKey \}/,
        )
        expect(server.requests).toEqual([])
      } finally {
        await server.close()
      }
    })

    it('keeps an id in one path segment', async () => {
      await expect(client.charges.retrieve('../payments')).rejects.toMatchObject({
        status: 404,
        path: '/v2/charges/..%2Fpayments',
      })
    })
  })
})
