import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderRepository } from '../src/orders/order-repository.js'
import { flakyAcquirer } from './support/flaky-acquirer.js'
import { shopHttp } from './support/shop-http.js'
import { type Stack, startStack } from './support/stack.js'

describe('refunds, capture and cancellation from the order page', () => {
  let stack: Stack
  let http: ReturnType<typeof shopHttp>
  beforeAll(async () => {
    stack = await startStack({ processors: [flakyAcquirer()] })
    http = shopHttp(stack)
  })
  afterAll(async () => {
    await stack?.close()
  })

  async function paidOrder(product = 'hand-grinder') {
    const orderId = await http.checkout(product, 'pay')
    await http.payWithCard(orderId)
    await http.waitForOrder(orderId, (o) => o.status === 'paid' && o.payment_id !== null)
    return orderId
  }

  /**
   * A "Pay now" order whose automatic capture is declined once: its charge is made as checkout
   * makes it, but on the flaky acquirer's channel (the shop's own channels never decline once).
   * The card goes through the order page; the webhook then marks the order payment_failed.
   */
  async function orderWithDeclinedCapture() {
    const order = await orderRepository.create(stack.database, {
      productId: 'pour-over-kettle',
      description: 'Pour-over kettle',
      amountMinor: 5900n,
      currency: 'USD',
      flow: 'pay',
    })
    const charge = await stack.client.charges.create({
      charge_type: 'card_onetime',
      amount: 59,
      currency: 'USD',
      channels: ['card_onetime_flaky_acquirer'],
      events_url: `${stack.shop.publicUrl}/webhooks`,
      metadata: { order_id: order.id },
      instrument_params: { captured_on_creation: true, enable3ds: false },
    })
    await orderRepository.attachCharge(stack.database, order.id, charge.id)
    expect((await http.payWithCard(order.id)).outcome).toBe('returned')
    const failed = await http.waitForOrder(
      order.id,
      (o) => o.status === 'payment_failed' && o.failure?.step === 'payment',
    )
    expect(failed).toMatchObject({ captured: '0.00', failure: { code: '02.04.0000' } })
    // The authorization stays open: the funds are held until a capture or a cancellation.
    const instrument = await stack.client.instruments.retrieve(failed.instrument_id ?? '')
    expect(instrument.status).toBe('authorized')
    const { html } = await http.page(`/orders/${order.id}`)
    expect(html).toContain(`action="/orders/${order.id}/capture"`)
    expect(html).toContain(`action="/orders/${order.id}/cancel"`)
    return order.id
  }

  it('a declined automatic capture can be retried from the order page, and pays', async () => {
    const orderId = await orderWithDeclinedCapture()
    const response = await http.post(`/orders/${orderId}/capture`, {
      request_key: await http.requestKey(orderId),
    })
    expect(response.status).toBe(303)
    const paid = await http.waitForOrder(orderId, (o) => o.status === 'paid')
    expect(paid).toMatchObject({ captured: '59.00', failure: null })
    expect(paid.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['payment.error', 'payment.success']),
    )
  })

  it('a declined automatic capture can be cancelled, which releases the funds', async () => {
    const orderId = await orderWithDeclinedCapture()
    const response = await http.post(`/orders/${orderId}/cancel`, {
      request_key: await http.requestKey(orderId),
    })
    expect(response.status).toBe(303)
    const cancelled = await http.waitForOrder(orderId, (o) => o.status === 'cancelled')
    expect(cancelled.events.map((event) => event.type)).toContain('reversal.success')
    const instrument = await stack.client.instruments.retrieve(cancelled.instrument_id ?? '')
    expect(instrument.status).toBe('invalid')
  })

  it('the test card whose captures fail: held after "Pay now", declined again on retry, cancelled', async () => {
    const orderId = await http.checkout('pour-over-kettle', 'pay')
    const paying = await http.payWithCard(orderId, { number: '4000 0000 0000 0341' })
    expect(paying.outcome).toBe('returned')
    const failed = await http.waitForOrder(
      orderId,
      (o) => o.status === 'payment_failed' && o.failure?.step === 'payment',
    )
    expect(failed).toMatchObject({ captured: '0.00', failure: { code: '03.00.0001' } })
    const retried = await http.post(`/orders/${orderId}/capture`, {
      request_key: await http.requestKey(orderId),
    })
    expect(retried.status).toBe(303)
    const again = await http.waitForOrder(
      orderId,
      (o) => o.events.filter((event) => event.type === 'payment.error').length === 2,
    )
    expect(again).toMatchObject({ status: 'payment_failed', failure: { code: '03.00.0001' } })
    await http.post(`/orders/${orderId}/cancel`, { request_key: await http.requestKey(orderId) })
    const cancelled = await http.waitForOrder(orderId, (o) => o.status === 'cancelled')
    expect(cancelled.events.map((event) => event.type)).toContain('reversal.success')
  })

  it('counts a refund once when its refund.success is handled a second time', async () => {
    const orderId = await paidOrder('espresso-beans')
    await http.post(`/orders/${orderId}/refund`, {
      request_key: await http.requestKey(orderId),
      amount: '4.90',
    })
    const partly = await http.waitForOrder(orderId, (o) => o.status === 'partially_refunded')
    const refunded = partly.events.find((event) => event.type === 'refund.success')
    expect(refunded?.object_id).toMatch(/^re_/)
    // The delivery store no longer holds the event as done, as when its claim's lease ran out
    // while the first run was still committing: the next delivery runs the handler again.
    await stack.database.query('DELETE FROM processed_events WHERE event_id = $1', [
      refunded?.id ?? '',
    ])
    const again = await stack.client.events.redeliver(refunded?.id ?? '')
    expect(again.result_status).toBe(200)
    const after = await http.order(orderId)
    expect(after).toMatchObject({ status: 'partially_refunded', refunded: '4.90' })
    expect(after.events.filter((event) => event.type === 'refund.success')).toHaveLength(1)
  })

  it('partial then full refund: refund.success events, partially_refunded then refunded', async () => {
    const orderId = await paidOrder()
    const first = await http.post(`/orders/${orderId}/refund`, {
      request_key: await http.requestKey(orderId),
      amount: '29.00',
    })
    expect(first.status).toBe(303)
    const partly = await http.waitForOrder(orderId, (o) => o.status === 'partially_refunded')
    expect(partly).toMatchObject({ refunded: '29.00', captured: '129.00' })

    const rest = await http.post(`/orders/${orderId}/refund`, {
      request_key: await http.requestKey(orderId),
      amount: '100.00',
    })
    expect(rest.status).toBe(303)
    const refunded = await http.waitForOrder(orderId, (o) => o.status === 'refunded')
    expect(refunded.refunded).toBe('129.00')
    const refunds = refunded.events.filter((event) => event.type === 'refund.success')
    expect(refunds).toHaveLength(2)
    expect(refunds.map((event) => event.status_after)).toEqual(['partially_refunded', 'refunded'])
    const payment = await stack.client.payments.retrieve(refunded.payment_id ?? '')
    expect(payment.refunded_amount).toBe(129)
  })

  it('a double-submitted refund form refunds once (same idempotency key)', async () => {
    const orderId = await paidOrder('espresso-beans')
    const key = await http.requestKey(orderId)
    const submit = () =>
      http.post(`/orders/${orderId}/refund`, { request_key: key, amount: '5.00' })
    await submit()
    await http.waitForOrder(orderId, (o) => o.refunded === '5.00')
    await submit()
    const payment = await stack.client.payments.retrieve(
      (await http.order(orderId)).payment_id ?? '',
    )
    expect(payment.refunded_amount).toBe(5)
    expect((await http.order(orderId)).refunded).toBe('5.00')
  })

  it('refuses a refund over what is left, with the reason, without calling the service', async () => {
    const orderId = await paidOrder('espresso-beans')
    const response = await http.post(`/orders/${orderId}/refund`, {
      request_key: await http.requestKey(orderId),
      amount: '24.91',
    })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('At most 24.90 USD is left to refund')
    const bad = await http.post(`/orders/${orderId}/refund`, {
      request_key: await http.requestKey(orderId),
      amount: '1.234',
    })
    expect(bad.status).toBe(400)
    const order = await http.order(orderId)
    expect(order).toMatchObject({ status: 'paid', refunded: '0.00' })
  })

  it('authorize then capture: paid through payment.success', async () => {
    const orderId = await http.checkout('pour-over-kettle', 'authorize')
    await http.payWithCard(orderId)
    const held = await http.waitForOrder(orderId, (o) => o.status === 'authorized')
    expect(held.captured).toBe('0.00')
    const response = await http.post(`/orders/${orderId}/capture`, {
      request_key: await http.requestKey(orderId),
    })
    expect(response.status).toBe(303)
    const paid = await http.waitForOrder(orderId, (o) => o.status === 'paid')
    expect(paid).toMatchObject({ captured: '59.00' })
    expect(paid.events.map((event) => event.type)).toContain('payment.success')
  })

  it('cancel reverses the authorization: reversal.success, cancelled', async () => {
    const orderId = await http.checkout('pour-over-kettle', 'authorize')
    await http.payWithCard(orderId)
    const held = await http.waitForOrder(orderId, (o) => o.status === 'authorized')
    const response = await http.post(`/orders/${orderId}/cancel`, {
      request_key: await http.requestKey(orderId),
    })
    expect(response.status).toBe(303)
    const cancelled = await http.waitForOrder(orderId, (o) => o.status === 'cancelled')
    expect(cancelled.events.map((event) => event.type)).toContain('reversal.success')
    const instrument = await stack.client.instruments.retrieve(held.instrument_id ?? '')
    expect(instrument.status).toBe('invalid')
    // Nothing more to do on a cancelled order: the page offers no capture, cancel or refund.
    const { html } = await http.page(`/orders/${orderId}`)
    expect(html).not.toContain('/capture"')
    expect(html).not.toContain('/refund"')
  })

  it('the live stream ends once the order is final, and is not reopened', async () => {
    const orderId = await http.checkout('pour-over-kettle', 'authorize')
    await http.payWithCard(orderId)
    const held = await http.waitForOrder(orderId, (o) => o.status === 'authorized')
    const live = (version: number) =>
      fetch(`${stack.shop.url}/orders/${orderId}/live?version=${version}`)
    const stream = await live(held.version)
    expect(stream.status).toBe(200)
    await http.post(`/orders/${orderId}/cancel`, { request_key: await http.requestKey(orderId) })
    // Resolves only once the shop ends the stream, after pushing the cancelled order.
    const text = await stream.text()
    expect(text).toContain('data-status=\\"cancelled\\"')
    expect(text).toContain('"final":true')
    // Asked again once every event of the cancellation is in (instrument.invalid adds a line),
    // the shop answers 204, which tells a reconnecting EventSource to stop.
    const done = await http.waitForOrder(orderId, (o) =>
      o.events.some((event) => event.type === 'instrument.invalid'),
    )
    expect((await live(done.version)).status).toBe(204)
    // The page of a final order does not connect at all.
    expect((await http.page(`/orders/${orderId}`)).html).toContain('data-final="true"')
  })
})
