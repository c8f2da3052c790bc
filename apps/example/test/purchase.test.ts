import { signDelivery } from '@chargekit/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startShop } from '../src/shop.js'
import { type OrderJson, shopHttp } from './support/shop-http.js'
import { type Stack, startStack } from './support/stack.js'
import { startWebhookGate } from './support/webhook-gate.js'

const isPaid = (order: OrderJson) => order.status === 'paid' && order.payment_id !== null

let stack: Stack
let http: ReturnType<typeof shopHttp>
beforeAll(async () => {
  stack = await startStack()
  http = shopHttp(stack)
})
afterAll(async () => {
  await stack?.close()
})

describe('purchase through the webhook', () => {
  it('lists the products', async () => {
    const { status, html } = await http.page('/')
    expect(status).toBe(200)
    expect(html).toContain('Pour-over kettle')
    expect(html).toContain('$59.00')
    expect(html).toContain('¥1,800')
  })

  it('checkout creates an order and a charge that names it; paying turns it paid', async () => {
    const orderId = await http.checkout('pour-over-kettle', 'pay')
    const created = await http.order(orderId)
    expect(created).toMatchObject({ status: 'awaiting_payment', amount: '59.00', currency: 'USD' })
    const charge = await stack.client.charges.retrieve(created.charge_id ?? '')
    expect(charge.metadata).toMatchObject({ order_id: orderId })
    expect(charge.events_url).toBe(`${stack.shop.url}/webhooks`)
    expect(charge.amount).toBe(59)

    const paid = await http.payWithCard(orderId)
    if (paid.outcome !== 'returned') throw new Error(`card not accepted: ${paid.outcome}`)
    // Back on the order page with the instrument named, the shop notes the card and shows the
    // order at its own address.
    expect(paid.response.status).toBe(303)
    expect(paid.response.headers.get('location')).toBe(`/orders/${orderId}`)
    const order = await http.waitForOrder(orderId, isPaid)
    expect(order).toMatchObject({ captured: '59.00', card: { last4: '4242' }, failure: null })
    const types = order.events.map((event) => event.type)
    expect(types).toEqual(expect.arrayContaining(['instrument.authorized', 'payment.success']))

    const { html } = await http.page(`/orders/${orderId}`)
    expect(html).toContain('data-status="paid"')
    expect(html).toContain('•••• 4242')
    expect(html).not.toMatch(/4242\s?4242\s?4242\s?4242/)
  })

  it('a zero-decimal currency is charged in whole units', async () => {
    const orderId = await http.checkout('matcha-tin', 'pay')
    const order = await http.order(orderId)
    expect(order).toMatchObject({ amount: '1800', currency: 'JPY' })
    expect((await stack.client.charges.retrieve(order.charge_id ?? '')).amount).toBe(1800)
    await http.payWithCard(orderId)
    expect(await http.waitForOrder(orderId, isPaid)).toMatchObject({ captured: '1800' })
  })

  it('one delivery handled twice (redelivered and concurrent duplicates) marks paid once', async () => {
    const orderId = await http.checkout('espresso-beans', 'pay')
    await http.payWithCard(orderId)
    const paid = await http.waitForOrder(orderId, isPaid)
    const authorized = paid.events.find((event) => event.type === 'instrument.authorized')
    expect(authorized).toBeDefined()
    const eventId = authorized?.id ?? ''

    // The sandbox delivers the same event again, and two copies race each other by hand.
    const redelivered = await stack.client.events.redeliver(eventId)
    expect(redelivered.result_status).toBe(200)
    // Signed as the sandbox signs: the shop refuses unsigned deliveries.
    const copy = await signDelivery({
      event: await stack.client.events.retrieve(eventId),
      url: `${stack.shop.url}/webhooks`,
      secret: stack.sandbox.accounts[0]?.signingSecret ?? '',
    })
    const racing = await Promise.all(
      [1, 2, 3].map(() =>
        fetch(copy.url, { method: 'POST', headers: copy.headers, body: copy.body }),
      ),
    )
    for (const response of racing) expect([200, 409]).toContain(response.status)

    const after = await http.order(orderId)
    expect(after.events.filter((event) => event.id === eventId)).toHaveLength(1)
    expect(after.events.filter((event) => event.status_after === 'paid')).toHaveLength(
      paid.events.filter((event) => event.status_after === 'paid').length,
    )
    expect(after.status).toBe('paid')
    const processed = await stack.database.query<{ state: string }>(
      'SELECT state FROM processed_events WHERE event_id = $1',
      [eventId],
    )
    expect(processed).toEqual([{ state: 'done' }])
  })

  it('refuses a forged delivery: no order changes', async () => {
    const orderId = await http.checkout('hand-grinder', 'authorize')
    const before = await http.order(orderId)
    const forged = await fetch(`${stack.shop.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'ev_forged_0000', type: 'instrument.authorized' }),
    })
    expect(forged.status).toBe(401)
    const wrongType = before.events[0]
    if (wrongType) {
      const mismatch = await fetch(`${stack.shop.url}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: wrongType.id, type: 'payment.success' }),
      })
      expect(mismatch.status).toBe(401)
    }
    // A genuine event of the order, sent again by someone without the sandbox's signing secret.
    const [genuine] = (await stack.client.events.list({ charge: before.charge_id ?? '' }))
      .collection
    expect(genuine).toBeDefined()
    const unsigned = await fetch(`${stack.shop.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: genuine?.id, type: genuine?.type }),
    })
    expect(unsigned.status).toBe(401)
    expect(await unsigned.json()).toMatchObject({ error: { code: 'invalid_signature' } })
    const after = await http.order(orderId)
    expect(after.status).toBe('awaiting_payment')
    expect(after.events.length).toBeGreaterThanOrEqual(before.events.length)
    expect(after.events.map((event) => event.type)).not.toContain('payment.success')
  })

  it('3-D Secure: the customer is sent to the issuer page and comes back to a paid order', async () => {
    const orderId = await http.checkout('pour-over-kettle', 'three_ds')
    const submitted = await http.payWithCard(orderId)
    if (submitted.outcome !== 'redirect') throw new Error(`no 3-D Secure: ${submitted.outcome}`)
    const challenge = new URL(submitted.url)
    expect(challenge.origin).toBe(new URL(stack.sandbox.url).origin)

    const page = await (await fetch(challenge)).text()
    const completed = await completeChallenge(page, challenge, 'authorize')
    expect(completed.status).toBeGreaterThanOrEqual(300)
    expect(completed.status).toBeLessThan(400)
    // Back to the order page, the instrument named in the query.
    const back = new URL(completed.headers.get('location') ?? '')
    expect(`${back.origin}${back.pathname}`).toBe(`${stack.shop.url}/orders/${orderId}`)
    expect(back.searchParams.get('instrument')).toBe(submitted.instrument.id)
    const returned = await fetch(back, { redirect: 'manual' })
    expect(returned.headers.get('location')).toBe(`/orders/${orderId}`)
    const order = await http.waitForOrder(orderId, (o) => o.status === 'paid')
    expect(order).toMatchObject({
      instrument_id: submitted.instrument.id,
      card: { last4: '4242' },
    })
    expect(order.events.map((event) => event.type)).toContain('instrument.pending')
  })

  it('3-D Secure failed: the order waits for another card and shows why', async () => {
    const orderId = await http.checkout('pour-over-kettle', 'three_ds')
    const submitted = await http.payWithCard(orderId)
    if (submitted.outcome !== 'redirect') throw new Error(`no 3-D Secure: ${submitted.outcome}`)
    const challenge = new URL(submitted.url)
    await completeChallenge(await (await fetch(challenge)).text(), challenge, 'fail')
    const order = await http.waitForOrder(orderId, (o) => o.failure !== null)
    expect(order.status).toBe('awaiting_payment')
    expect(order.failure?.step).toBe('instrument')
  })

  it('the order page draws the card form from the service’s schema, with no way to post a card to the shop', async () => {
    const orderId = await http.checkout('espresso-beans', 'pay')
    const { charge_id: chargeId } = await http.order(orderId)
    const { html } = await http.page(`/orders/${orderId}`)
    const form = /<form\s[^>]*data-payment-form[\s\S]*?<\/form>/.exec(html)?.[0] ?? ''
    expect(form).toContain(`data-charge="${chargeId}"`)
    expect(form).toContain(`data-public-key="${stack.browserCheckout.publicKey}"`)
    expect(form).toContain(`data-service-url="${stack.sandbox.url}"`)
    const fields = [...form.matchAll(/data-field="([^"]+)"\s+data-type="([^"]+)"/g)].map(
      ([, name, type]) => `${name}:${type}`,
    )
    expect(fields).toEqual([
      'name:string',
      'number:string',
      'expiration_month:integer',
      'expiration_year:integer',
      'cvc:string',
    ])
    // Nothing a browser would submit to the shop: no action, no method, no named input.
    expect(form).not.toMatch(/\saction=|\smethod=|\sname=/)
    // The old server-side card route is gone.
    const posted = await http.post(`/orders/${orderId}/pay`, { number: '4242424242424242' })
    expect(posted.status).toBe(404)
    // Scripts may call the service, where the card goes.
    const page = await fetch(`${stack.shop.url}/orders/${orderId}`)
    expect(page.headers.get('content-security-policy')).toContain(
      `connect-src 'self' ${stack.sandbox.url}`,
    )
  })

  it('a declined card shows the decline and leaves the order payable', async () => {
    const orderId = await http.checkout('espresso-beans', 'pay')
    const refused = await http.payWithCard(orderId, { expiration_year: 2020 })
    if (refused.outcome !== 'refused') throw new Error(`card accepted: ${refused.outcome}`)
    expect(refused.error.code).toBe('03.00.0002')
    // The shop learns the decline from the webhook (instrument.invalid).
    const order = await http.waitForOrder(orderId, (o) => o.failure !== null)
    expect(order.status).toBe('awaiting_payment')
    expect(order.failure).toMatchObject({ step: 'instrument', code: '03.00.0002' })
    const { html } = await http.page(`/orders/${orderId}`)
    expect(html).toContain('Instrument Expired')
    expect(html).toContain('data-payment-form')
  })

  it('an instrument id in the address bar counts only when it belongs to the order', async () => {
    const first = await http.checkout('espresso-beans', 'authorize')
    const second = await http.checkout('espresso-beans', 'authorize')
    const paid = await http.payWithCard(first)
    if (paid.outcome !== 'returned') throw new Error(`card not accepted: ${paid.outcome}`)
    // The first order's instrument, shown on the second order's page: ignored.
    for (const id of [paid.instrumentId, 'in_unknown', '../charges']) {
      const response = await fetch(
        `${stack.shop.url}/orders/${second}?instrument=${encodeURIComponent(id)}`,
        { redirect: 'manual' },
      )
      expect(response.status).toBe(303)
    }
    expect(await http.order(second)).toMatchObject({
      status: 'awaiting_payment',
      instrument_id: null,
      card: null,
    })
  })

  it('too many declined cards: the shop gives the order a new charge', async () => {
    const orderId = await http.checkout('espresso-beans', 'pay')
    const { charge_id: stopped } = await http.order(orderId)
    const expired = { expiration_year: 2020 }
    for (let attempt = 1; attempt <= 5; attempt++) {
      const declined = await http.payWithCard(orderId, expired)
      expect(declined.outcome === 'refused' && declined.error.code).toBe('03.00.0002')
    }
    const stoppedNow = await http.payWithCard(orderId, expired)
    expect(stoppedNow.outcome === 'refused' && stoppedNow.error.code).toBe('02.01.0000')
    // What the page's script does next; asking twice still makes one new charge.
    expect((await http.post(`/orders/${orderId}/new-charge`, {})).status).toBe(303)
    await http.post(`/orders/${orderId}/new-charge`, {})
    const renewed = await http.order(orderId)
    expect(renewed.charge_id).not.toBe(stopped)
    expect(renewed).toMatchObject({
      status: 'awaiting_payment',
      failure: { step: 'charge', code: '02.01.0000' },
    })
    const paid = await http.payWithCard(orderId)
    expect(paid.outcome).toBe('returned')
    expect(await http.waitForOrder(orderId, isPaid)).toMatchObject({ failure: null })
    // A charge that was not stopped is kept: the browser cannot make the shop create charges.
    const other = await http.checkout('espresso-beans', 'pay')
    const { charge_id: kept } = await http.order(other)
    await http.post(`/orders/${other}/new-charge`, {})
    expect((await http.order(other)).charge_id).toBe(kept)
  })

  it('rejects unknown products and cross-site form posts', async () => {
    expect((await http.post('/checkout', { product: 'nope', flow: 'pay' })).status).toBe(400)
    const crossSite = await fetch(`${stack.shop.url}/checkout`, {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'product=espresso-beans&flow=pay',
      redirect: 'manual',
    })
    expect(crossSite.status).toBe(403)
  })

  it('offers MB WAY and Multibanco for euro prices only, each on its own charge type', async () => {
    const { html } = await http.page('/')
    const flowsOf = (product: string) => {
      const card = new RegExp(`data-product="${product}"[\\s\\S]*?</form>`).exec(html)?.[0] ?? ''
      return [...card.matchAll(/<option value="([a-z_]+)"/g)].map((match) => match[1])
    }
    expect(flowsOf('espresso-cups')).toEqual([
      'pay',
      'authorize',
      'three_ds',
      'mbway',
      'multibanco',
    ])
    expect(flowsOf('espresso-beans')).toEqual(['pay', 'authorize', 'three_ds'])
    // Posted anyway: refused with the reason, and no order is created.
    const before = (await http.page('/orders')).html.match(/ord_/g)?.length ?? 0
    const refused = await http.post('/checkout', { product: 'espresso-beans', flow: 'mbway' })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain(
      'MB WAY takes EUR only: choose another way to pay for a price in USD',
    )
    expect((await http.page('/orders')).html.match(/ord_/g)?.length ?? 0).toBe(before)

    const mbway = await http.order(await http.checkout('espresso-cups', 'mbway'))
    const charge = await stack.client.charges.retrieve(mbway.charge_id ?? '')
    expect(charge).toMatchObject({ charge_type: 'mbway', amount: 18.5, currency: 'EUR' })
    expect(charge.channels?.map((channel) => channel.label)).toEqual(['mbway_mbway'])
    // The phone form is drawn from the mbway schema: one input, no name, nothing posts it.
    const { html: page } = await http.page(`/orders/${mbway.id}`)
    const form = /<form\s[^>]*data-payment-form[\s\S]*?<\/form>/.exec(page)?.[0] ?? ''
    expect([...form.matchAll(/data-field="([a-z_]+)"/g)].map((match) => match[1])).toEqual([
      'phone_number',
    ])
    expect(form).not.toMatch(/\sname=|\saction=/)

    // Multibanco: checkout got the reference already.
    const multibanco = await http.order(await http.checkout('espresso-cups', 'multibanco'))
    expect(multibanco).toMatchObject({
      status: 'awaiting_customer',
      customer_action: { method: 'multibanco', entity: '21098', amount: '18.50', currency: 'EUR' },
    })
    expect(multibanco.customer_action?.reference).toMatch(/^\d{9}$/)
  })

  it('plays no customer against a service that is not known to be the sandbox', async () => {
    const orderId = await http.checkout('espresso-cups', 'multibanco')
    const { html } = await http.page(`/orders/${orderId}`)
    expect(html).toContain('data-customer-action="multibanco"')
    expect(html).not.toContain('simulate-customer')
    const simulated = await http.post(`/orders/${orderId}/simulate-customer`, { answer: 'pay' })
    expect(simulated.status).toBe(404)
    const { instrument_id: instrumentId } = await http.order(orderId)
    expect((await stack.client.instruments.retrieve(instrumentId ?? '')).status).toBe('pending')
  })

  it('the live stream pushes the order panel when the order changes', async () => {
    const orderId = await http.checkout('espresso-beans', 'pay')
    const { version } = await http.order(orderId)
    const controller = new AbortController()
    const stream = await fetch(`${stack.shop.url}/orders/${orderId}/live?version=${version}`, {
      signal: controller.signal,
    })
    expect(stream.headers.get('content-type')).toContain('text/event-stream')
    await http.payWithCard(orderId)
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let text = ''
    while (!text.includes('data-status=\\"paid\\"')) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    controller.abort()
    expect(text).toContain('event: order')
    expect(text).toContain('data-status=\\"paid\\"')
    // A paid order is not final (it can still be refunded): the stream stays open.
    expect(text).toContain('"final":false')
  })
})

describe('the order turns paid only when the webhook arrives', () => {
  it('stays unpaid while deliveries are blocked, and turns paid on the delivered event', async () => {
    // A second shop on the same sandbox and database, which the sandbox reaches through the gate.
    const gate = await startWebhookGate()
    const gated = await startShop({
      client: stack.client,
      database: stack.database,
      browserCheckout: stack.browserCheckout,
      publicUrl: gate.url,
    })
    gate.forwardTo(gated.url)
    try {
      const http = shopHttp({ shop: gated, browserCheckout: stack.browserCheckout })
      const orderId = await http.checkout('hand-grinder', 'pay')
      expect((await http.payWithCard(orderId)).outcome).toBe('returned')
      const { instrument_id: instrumentId } = await http.order(orderId)
      expect((await stack.client.instruments.retrieve(instrumentId ?? '')).status).toBe(
        'authorized',
      )
      // The service has tried to deliver instrument.authorized; the gate refused it.
      const authorized = await gate.deliveryOf('instrument.authorized')
      const blocked = await http.order(orderId)
      expect(blocked.status).toBe('processing')
      expect(blocked.events).toEqual([])

      gate.open()
      await stack.client.events.redeliver(authorized.id)
      const order = await http.waitForOrder(orderId, (o) => o.status === 'paid')
      expect(order.events.map((event) => event.type)).toContain('instrument.authorized')
    } finally {
      await gated.close()
      await gate.close()
    }
  })
})

async function completeChallenge(page: string, challenge: URL, outcome: 'authorize' | 'fail') {
  const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&')
  const token =
    /name="token"\s+value="([^"]+)"/.exec(page)?.[1] ?? challenge.searchParams.get('token')
  expect(action).toBeDefined()
  return fetch(new URL(action ?? '', challenge), {
    method: 'POST',
    body: new URLSearchParams({ outcome, token: token ?? '' }),
    redirect: 'manual',
  })
}
