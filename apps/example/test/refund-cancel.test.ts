import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shopHttp } from './support/shop-http.js'
import { type Stack, startStack } from './support/stack.js'

describe('refunds, capture and cancellation from the order page', () => {
  let stack: Stack
  let http: ReturnType<typeof shopHttp>
  beforeAll(async () => {
    stack = await startStack()
    http = shopHttp(stack.shop.url)
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
})
