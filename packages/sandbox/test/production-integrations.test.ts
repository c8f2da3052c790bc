import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../src/testing/index'

/**
 * Integrations written for the production service, replayed request for request: the bodies,
 * content types and paths are what a PHP cURL plugin and a Node plugin send. They never read
 * the integration-warnings header; the sandbox must simply complete their flows.
 */

const account = { id: 'acct_shop', key: 'sk_shop_0123456789' }
let harness: TestSandbox

beforeAll(async () => {
  harness = await startTestSandbox({ accounts: [account], timeScale: 0.001 })
})
afterAll(() => harness.close())

/** One request exactly as given: the body text and content type are not touched. */
async function send(method: string, path: string, body?: { text: string; type: string }) {
  const answer = await harness.api(
    method,
    path,
    body?.text,
    body === undefined ? {} : { 'content-type': body.type },
  )
  return { ...answer, warnings: answer.headers.get(warningsHeader) }
}

const warningsHeader = 'chargekit-integration-warnings'

/** PHP's `curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($data))` without a content type. */
const phpCurl = (data: unknown) => ({
  text: JSON.stringify(data),
  type: 'application/x-www-form-urlencoded',
})
const json = (data: unknown) => ({ text: JSON.stringify(data), type: 'application/json' })

describe('a PHP e-commerce plugin (cURL defaults, values as strings)', () => {
  it('sells, refunds through /v2/refunds, and reads its deliveries', async () => {
    const charge = await send(
      'POST',
      '/charges/',
      phpCurl({
        charge_type: 'card_onetime',
        amount: '20.50',
        currency: 'EUR',
        events_url: `${harness.receiver.url}/?wc-api=chargekit`,
        redirect_url: null,
        description: 'Order #1001',
        metadata: { order_id: '1001' },
        customer_email: 'ana@example.com',
      }),
    )
    expect(charge.status).toBe(201)
    expect(charge.body).toMatchObject({
      amount: 20.5,
      currency: 'EUR',
      description: 'Order #1001',
      redirect_url: '',
      confirmed: true,
    })
    // Every lenience it relied on is named, though this plugin never looks.
    expect(charge.warnings).toMatch(/amount/)
    expect(charge.warnings).toMatch(/customer_email/)

    const instrument = await send(
      'POST',
      '/instruments/',
      phpCurl({
        charge: charge.body.id,
        name: 'Ana Silva',
        number: '4242424242424242',
        expiration_month: '12',
        expiration_year: String(new Date().getUTCFullYear() + 2),
        cvc: '123',
        save_card: 'no',
      }),
    )
    expect(instrument.status).toBe(201)
    expect(instrument.body).toMatchObject({
      status: 'authorized',
      charge: { id: charge.body.id, charge_type: 'card_onetime' },
      used: true,
    })
    const paymentId: string = instrument.body.last_payment.id
    const payment = await send('GET', `/payments/${paymentId}/`)
    expect(payment.body).toMatchObject({
      status: 'success',
      charge: { id: charge.body.id },
      instrument: { id: instrument.body.id },
      refunds: [],
    })

    const refund = await send(
      'POST',
      '/refunds/',
      phpCurl({ payment: paymentId, amount: '5.25', description: 'Returned item' }),
    )
    expect(refund.status).toBe(201)
    expect(refund.body).toMatchObject({ amount: 5.25, success: true })
    const refunded = await send('GET', `/payments/${paymentId}`)
    expect(refunded.body.refunds).toEqual([{ id: refund.body.id, amount: 5.25, success: true }])

    // The plugin's webhook handler: `$_GET['event']`, then GET /v2/events/{id}.
    await harness.receiver.until((received) =>
      received.some((delivery) => delivery.url.searchParams.get('event_type') === 'refund.success'),
    )
    const delivery = harness.receiver.received.find(
      (received) => received.url.searchParams.get('event_type') === 'refund.success',
    )
    expect(delivery?.url.searchParams.get('wc-api')).toBe('chargekit')
    const eventId = delivery?.url.searchParams.get('event') ?? ''
    const event = await send('GET', `/events/${eventId}/`)
    expect(event.status).toBe(200)
    expect(event.body).toMatchObject({ type: 'refund.success', refund: { id: refund.body.id } })
    // The body is the compact form: the plugin may read the charge's metadata straight from it.
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({
      id: eventId,
      type: 'refund.success',
      charge: { id: charge.body.id, amount: 20.5, currency: 'EUR', metadata: { order_id: '1001' } },
    })
  })

  it('posts a real form body with bracketed metadata', async () => {
    const form = new URLSearchParams({
      charge_type: 'card_onetime',
      amount: '12.5',
      currency: 'EUR',
      events_url: `${harness.receiver.url}/form`,
      'metadata[order]': '7',
      'channels[]': 'card_onetime_no_processor',
    })
    const charge = await send('POST', '/charges', {
      text: form.toString(),
      type: 'application/x-www-form-urlencoded',
    })
    expect(charge.status).toBe(201)
    expect(charge.body).toMatchObject({ amount: 12.5, metadata: { order: '7' } })
    expect(charge.body.channels[0].label).toBe('card_onetime_no_processor')
    expect(charge.warnings).not.toBeNull()
  })

  it('still refuses what no reading makes valid, naming the field', async () => {
    const charge = await send(
      'POST',
      '/charges/',
      phpCurl({
        charge_type: 'card_onetime',
        amount: 'abc',
        currency: 'EUR',
        events_url: `${harness.receiver.url}/x`,
      }),
    )
    expect(charge.status).toBe(400)
    expect(Object.keys(charge.body.parameters)).toContain('amount')
    const tooPrecise = await send(
      'POST',
      '/charges',
      json({
        charge_type: 'card_onetime',
        amount: '20.505',
        currency: 'EUR',
        events_url: `${harness.receiver.url}/x`,
      }),
    )
    expect(tooPrecise.status).toBe(400)
    expect(Object.keys(tooPrecise.body.parameters)).toContain('amount')
  })
})

describe('a Node subscription plugin (recurring tokens, confirm, DELETE)', () => {
  it('verifies a card with 1 EUR, then charges the token several times for more', async () => {
    const charge = await send(
      'POST',
      '/charges',
      json({
        charge_type: 'card_recurring',
        amount: 1,
        currency: 'EUR',
        events_url: `${harness.receiver.url}/subscriptions`,
        confirmed: false,
      }),
    )
    expect(charge.status).toBe(201)
    expect(charge.body.confirmed).toBe(false)
    const early = await send('POST', '/instruments', json(card(charge.body.id)))
    expect(early.status).toBe(409)
    const confirmed = await send('POST', `/charges/${charge.body.id}/confirm/`)
    expect(confirmed.status).toBe(201)
    expect(confirmed.body.confirmed).toBe(true)
    const again = await send('POST', `/charges/${charge.body.id}/confirm`)
    expect(again.body).toEqual(confirmed.body)

    const token = await send('POST', '/instruments', json(card(charge.body.id)))
    expect(token.status).toBe(201)
    expect(token.body.status).toBe('authorized')
    for (const amount of ['49.90', '49.90', 120]) {
      const payment = await send(
        'POST',
        '/payments/',
        json({ instrument: token.body.id, amount, currency: 'EUR', description: 'Monthly plan' }),
      )
      expect(payment.status, JSON.stringify(payment.body)).toBe(201)
      expect(payment.body.status).toBe('success')
    }
    const events = await send('GET', `/events?charge=${charge.body.id}&type=charge.confirmed`)
    expect(events.body.pagination.total).toBe(1)

    const types = await send('GET', '/charges/types')
    expect(types.status).toBe(200)
    const recurring = types.body.collection.find(
      (type: { id: string }) => type.id === 'card_recurring',
    )
    expect(recurring).toMatchObject({ recurring: true })
    expect(recurring.schema.properties).toHaveProperty('number')
  })

  it('invalidates an authorized, uncaptured instrument with DELETE, reversing it first', async () => {
    const charge = await send(
      'POST',
      '/charges',
      json({
        charge_type: 'card_onetime',
        amount: 80,
        currency: 'EUR',
        events_url: `${harness.receiver.url}/cancel`,
        instrument_params: { captured_on_creation: false },
      }),
    )
    const instrument = await send('POST', '/instruments', json(card(charge.body.id)))
    expect(instrument.body.status).toBe('authorized')
    const deleted = await send('DELETE', `/instruments/${instrument.body.id}/`)
    expect(deleted.status).toBe(204)
    expect(deleted.body).toBe('')
    const after = await send('GET', `/instruments/${instrument.body.id}`)
    expect(after.body.status).toBe('invalid')
    const types = await send('GET', `/events?charge=${charge.body.id}&per_page=100`)
    const order = (types.body.collection as { type: string }[]).map((event) => event.type)
    expect(order.indexOf('instrument.invalid')).toBeLessThan(order.indexOf('reversal.success'))
  })
})

function card(chargeId: string) {
  return {
    charge: chargeId,
    name: 'Rui Costa',
    number: '5555555555554444',
    expiration_month: 10,
    expiration_year: new Date().getUTCFullYear() + 4,
    cvc: '321',
  }
}
