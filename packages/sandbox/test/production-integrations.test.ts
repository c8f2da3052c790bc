import { encodeTestAmount } from '@chargekit/errors'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completeChallenge } from '../../../scripts/challenge-form'
import { startTestSandbox, type TestSandbox } from '../src/testing/index'

/**
 * Integrations written for the production service, replayed request for request: the bodies,
 * content types and paths are what a PHP cURL plugin, a Node plugin, a Laravel deposit site and
 * a PrestaShop module send. They never read the integration-warnings header; the sandbox must
 * simply complete their flows, and name every lenience it read them with.
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

/** One request as the customer's browser sends it with the account's public key (JSON). */
async function sendFromBrowser(method: string, path: string, data: unknown) {
  const publicKey = harness.sandbox.accounts[0]?.publicKey ?? ''
  const answer = await harness.as({ id: publicKey, key: '' })(method, path, data, {
    origin: 'https://shop.example',
  })
  return { ...answer, warnings: answer.headers.get(warningsHeader) }
}

/** The codes and fields of a warnings header, in order: `['trailing_slash', 'float_amount amount']`. */
function warningsIn(header: string | null): string[] {
  if (header === null) return []
  return header.split(/,\s*(?=[a-z_]+(?:;|$))/).map((member) => {
    const [code = '', ...parameters] = member.split(';')
    const field = parameters.find((parameter) => parameter.startsWith('field='))
    return field === undefined ? code : `${code} ${JSON.parse(field.slice('field='.length))}`
  })
}

/** The first delivery to a URL with `path` whose `event_type` query is `type`, once it arrived. */
async function deliveryOf(path: string, type: string) {
  const matches = (delivery: (typeof harness.receiver.received)[number]) =>
    delivery.url.pathname === path && delivery.url.searchParams.get('event_type') === type
  await harness.receiver.until((received) => received.some(matches))
  const delivery = harness.receiver.received.find(matches)
  if (delivery === undefined) throw new Error(`no ${type} delivery to ${path}`)
  return delivery
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

describe('a Laravel deposit site (SwitchApi over cURL, string metadata, float amounts)', () => {
  it('credits a deposit paid by card with 3-D Secure, reading its string metadata back', async () => {
    const userId = 42
    const transId = 1001
    // The site's ledger: what its payment.success handler credits.
    const credited: { userId: number; transId: number; amount: number }[] = []
    const deposit = 10.1
    const tax = 10.7
    // SwitchApi::createCharge: json_encode of an array, posted with cURL's default content type.
    const charge = await send(
      'POST',
      '/charges/',
      phpCurl({
        charge_type: 'card_onetime',
        amount: deposit + tax,
        currency: 'EUR',
        events_url: `${harness.receiver.url}/switch/callback`,
        metadata: `${userId}|${transId}`,
        redirect_url: null,
        instrument_params: { enable3ds: true },
      }),
    )
    expect(deposit + tax).toBe(20.799999999999997)
    expect(charge.status).toBe(201)
    expect(charge.body).toMatchObject({
      amount: 20.8,
      metadata: '42|1001',
      redirect_url: '',
      confirmed: true,
      instrument_params: { enable3ds: true, captured_on_creation: true },
    })
    expect(warningsIn(charge.warnings)).toEqual([
      'trailing_slash',
      'json_with_other_content_type',
      'string_metadata metadata',
      'null_as_absent redirect_url',
      'float_amount amount',
    ])

    // The deposit page: the provider's browser library sends the card as the customer typed it.
    const instrument = await sendFromBrowser('POST', '/instruments', {
      charge: charge.body.id,
      name: 'Joana Reis',
      number: '4242 4242 4242 4242',
      expiration_month: 11,
      expiration_year: new Date().getUTCFullYear() + 3,
      cvc: '737',
    })
    expect(instrument.status).toBe(201)
    expect(instrument.body).toMatchObject({ status: 'pending', params: { last_4_digits: '4242' } })
    expect(instrument.warnings).toBeNull()
    // The customer passes the issuer's 3-D Secure page (no redirect_url: it says so there).
    expect((await completeChallenge(instrument.body.redirect.url, 'authorize')).status).toBe(200)
    const after = await sendFromBrowser('GET', `/instruments/${instrument.body.id}`, undefined)
    expect(after.body.status).toBe('authorized')

    // SwitchController@callback: `$_GET['event']`, GET /v2/events/{id}/ with the private key,
    // then `explode('|', $event['charge']['metadata'])`.
    const callback = await deliveryOf('/switch/callback', 'payment.success')
    const event = await send('GET', `/events/${callback.url.searchParams.get('event')}/`)
    expect(event.status).toBe(200)
    expect(event.body.charge.metadata).toBe('42|1001')
    const [user, transaction] = String(event.body.charge.metadata).split('|')
    credited.push({
      userId: Number(user),
      transId: Number(transaction),
      amount: event.body.payment.amount,
    })
    expect(credited).toEqual([{ userId, transId, amount: 20.8 }])
    expect(warningsIn(event.warnings)).toEqual(['trailing_slash'])
    // The delivered body is the compact form, the metadata string in it as sent.
    expect(JSON.parse(callback.body)).toMatchObject({
      type: 'payment.success',
      charge: { id: charge.body.id, amount: 20.8, metadata: '42|1001' },
    })
    const authorized = await deliveryOf('/switch/callback', 'instrument.authorized')
    expect(JSON.parse(authorized.body).charge.metadata).toBe('42|1001')
  })
})

describe('a PrestaShop Payshop module (the later API: charge type card)', () => {
  it('sells with a card charge paid from the browser, then refunds part of it', async () => {
    // The module's checkout page: the browser library lists the charge types and keeps `card`.
    const types = await sendFromBrowser('GET', '/charges/types', undefined)
    const offered = (types.body.collection as { id: string; payout: boolean }[]).filter(
      (type) => type.payout === false && type.id === 'card',
    )
    expect(offered).toHaveLength(1)
    // Its create-charge controller, with the shop's private key.
    const charge = await send(
      'POST',
      '/charges',
      json({
        charge_type: 'card',
        amount: 35.9,
        currency: 'EUR',
        events_url: `${harness.receiver.url}/module/payshop/webhook?id_cart=77`,
        redirect_url: 'https://shop.example/module/payshop/confirmation?id_cart=77',
        metadata: { id_cart: 77, id_customer: 5 },
      }),
    )
    expect(charge.status).toBe(201)
    expect(charge.body).toMatchObject({
      charge_type: 'card',
      charge_type_label: 'Card payment',
      channels: [{ label: 'card_no_processor', processor: 'no_processor' }],
      instrument_params: { captured_on_creation: true, recurring: false },
    })
    expect(charge.warnings).toBeNull()

    const instrument = await sendFromBrowser('POST', '/instruments', {
      charge: charge.body.id,
      name: 'Rui Costa',
      number: '5555-5555-5555-4444',
      expiration_month: 4,
      expiration_year: new Date().getUTCFullYear() + 2,
      cvc: '321',
    })
    expect(instrument.status).toBe(201)
    expect(instrument.body).toMatchObject({
      status: 'authorized',
      charge: { id: charge.body.id, charge_type: 'card', charge_type_label: 'Card payment' },
      params: { brand: 'MASTERCARD', last_4_digits: '4444' },
      used: true,
    })

    // The module's webhook: the order is marked paid from the event it fetches.
    const paid = await deliveryOf('/module/payshop/webhook', 'payment.success')
    expect(paid.url.searchParams.get('id_cart')).toBe('77')
    const event = await send('GET', `/events/${paid.url.searchParams.get('event')}`)
    expect(event.body).toMatchObject({
      type: 'payment.success',
      charge: { charge_type: 'card', metadata: { id_cart: 77 } },
      payment: { amount: 35.9, status: 'success' },
    })

    // A partial refund from the back office.
    const refund = await send(
      'POST',
      `/payments/${event.body.payment.id}/refund`,
      json({ amount: 10, description: 'Returned item' }),
    )
    expect(refund.status).toBe(201)
    expect(refund.body).toMatchObject({ amount: 10, success: true })
    const refunded = await deliveryOf('/module/payshop/webhook', 'refund.success')
    const refundEvent = await send('GET', `/events/${refunded.url.searchParams.get('event')}`)
    expect(refundEvent.body).toMatchObject({
      charge: { charge_type: 'card' },
      refund: { id: refund.body.id, amount: 10 },
    })
  })

  it('declines a card charge by its test amount on card_no_processor', async () => {
    const charge = await send(
      'POST',
      '/charges',
      json({
        charge_type: 'card',
        amount: encodeTestAmount('03.03.0000', 'instrument'),
        currency: 'EUR',
        events_url: `${harness.receiver.url}/module/payshop/webhook?id_cart=78`,
        channels: ['card_no_processor'],
      }),
    )
    expect(charge.status).toBe(201)
    const declined = await sendFromBrowser('POST', '/instruments', {
      ...card(charge.body.id),
      number: '4242 4242 4242 4242',
    })
    expect(declined.status).toBe(402)
    expect(declined.body).toMatchObject({
      failure_code: '03.03.0000',
      failure_description: 'Card is Declined',
    })
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
