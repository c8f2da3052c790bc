import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, newWindow } from '../../../scripts/launch-chromium'
import { eventually, startTestSandbox, type TestSandbox } from '../src/testing/index'

// A merchant's checkout page whose payment form is drawn from GET /v2/charges/types the way the
// provider's own browser form library draws it (schema-form-page.ts), in real Chromium, against
// a real sandbox on another origin. The merchant's server is the provider's reference
// integration: it creates the charge when the form asks, and marks the order paid when the
// instrument.authorized event it fetches says so.

let harness: TestSandbox
let browser: Browser
let script = ''
let merchantUrl = ''
const orders = new Map<string, { authorized: boolean; instrumentId?: string }>()

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of request) text += chunk
  return text
}

const merchant = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', merchantUrl)
  const body = await bodyOf(request)
  if (request.method === 'GET' && url.pathname.startsWith('/order/')) {
    const orderId = url.pathname.slice('/order/'.length)
    orders.set(orderId, { authorized: false })
    const options = {
      apiUrl: harness.sandbox.apiUrl,
      publicKey: harness.sandbox.accounts[0]?.publicKey,
      chargesUrl: `${merchantUrl}/create-charge`,
      merchantTransactionId: orderId,
    }
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end(`<!doctype html><title>Checkout</title><h1>Order ${orderId}</h1>
      <div id="payment-form"></div>
      <script type="application/json" id="form-options">${JSON.stringify(options)}</script>
      <script>${script}</script>`)
    return
  }
  if (request.method === 'POST' && url.pathname === '/create-charge') {
    const { merchantTransactionId, chargeType } = JSON.parse(body)
    const charge = await harness.api('POST', '/charges', {
      charge_type: chargeType,
      amount: 550,
      currency: 'EUR',
      events_url: `${merchantUrl}/events`,
      metadata: { orderId: merchantTransactionId },
    })
    response.writeHead(charge.status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(charge.body))
    return
  }
  if (request.method === 'POST' && url.pathname === '/events') {
    if (url.searchParams.get('event_type') === 'instrument.authorized') {
      const event = await harness.api('GET', `/events/${url.searchParams.get('event')}`)
      const order = orders.get(event.body.charge.metadata.orderId)
      if (order) Object.assign(order, { authorized: true, instrumentId: event.body.instrument.id })
    }
    response.writeHead(204).end()
    return
  }
  response.writeHead(404).end()
})

beforeAll(async () => {
  const [bundled, sandbox, chromium] = await Promise.all([
    build({
      entryPoints: [new URL('./schema-form-page.ts', import.meta.url).pathname],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    }),
    startTestSandbox({ timeScale: 0.001 }),
    launchChromium(),
  ])
  script = bundled.outputFiles[0]?.text ?? ''
  harness = sandbox
  browser = chromium
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve))
  // Another origin than the sandbox's 127.0.0.1: the form's calls are cross-origin, as in a shop.
  merchantUrl = `http://localhost:${(merchant.address() as AddressInfo).port}`
}, 30_000)
afterAll(async () => {
  await browser?.close()
  await harness?.close()
  merchant.closeAllConnections()
  await new Promise<void>((resolve) => merchant.close(() => resolve()))
})

/** The requests the page sends to POST /v2/instruments, with their bodies. */
function instrumentRequests(page: Page): Record<string, unknown>[] {
  const sent: Record<string, unknown>[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/v2/instruments')) {
      sent.push(JSON.parse(request.postData() ?? '{}'))
    }
  })
  return sent
}

describe("a payment form drawn from the charge types, as the provider's library draws it", () => {
  it('lists the payment methods by title, draws the card form, and pays with the number as typed', async () => {
    const page = await newWindow(browser)
    const sent = instrumentRequests(page)
    await page.goto(`${merchantUrl}/order/1`)
    const methods = page.locator('#payment-form nav button')
    await methods.first().waitFor()
    const titles = await methods.allTextContents()
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)))
    expect(titles).toEqual(expect.arrayContaining(['Card one-time payment', 'Card payment']))

    await page.getByRole('button', { name: 'Card payment', exact: true }).click()
    const labels = await page.locator('#payment-form label').allTextContents()
    expect(labels).toEqual([
      'Cardholder name',
      'Card number',
      'Expiry month',
      'Expiry year',
      'Security code (CVC)',
    ])
    // The library gives the charge itself: there is no input for it to block the form.
    expect(await page.locator('#payment-form input[name="charge"]').count()).toBe(0)

    await page.getByLabel('Cardholder name').fill('Ana Silva')
    await page.getByLabel('Card number').fill('4242 4242 4242 424x')
    await page.getByLabel('Expiry month').fill('12')
    await page.getByLabel('Expiry year').fill(String(new Date().getUTCFullYear() + 3))
    await page.getByLabel('Security code (CVC)').fill('123')
    await page.getByRole('button', { name: 'Pay' }).click()
    // The schema's own pattern stops a mistyped number before anything is sent.
    await expect
      .poll(() => page.locator('[data-problem-for="number"]').textContent())
      .toBe('Invalid')
    expect(sent).toEqual([])

    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByRole('button', { name: 'Pay' }).click()
    await page.locator('#payment-form[data-status]').waitFor()
    expect(await page.locator('#payment-form').getAttribute('data-status')).toBe('authorized')
    expect(await page.getByRole('status').textContent()).toBe('Payment authorized')
    // Sent as the customer typed it; the service reads the digits.
    expect(sent).toEqual([expect.objectContaining({ number: '4242 4242 4242 4242' })])
    const instrumentId = await page.locator('#payment-form').getAttribute('data-instrument')
    const instrument = await harness.api('GET', `/instruments/${instrumentId}`)
    expect(instrument.body).toMatchObject({
      status: 'authorized',
      charge: { charge_type: 'card' },
      params: { last_4_digits: '4242' },
    })

    // The merchant's server marks the order paid from the event it fetched.
    await eventually(() => orders.get('1')?.authorized === true, {
      what: 'order 1 authorized by its instrument.authorized event',
    })
    expect(orders.get('1')?.instrumentId).toBe(instrumentId)
    await page.context().close()
  })

  it("draws MB WAY's phone number from its schema too, labelled by its title", async () => {
    const page = await newWindow(browser)
    await page.goto(`${merchantUrl}/order/2`)
    await page.getByRole('button', { name: 'MB WAY', exact: true }).click()
    expect(await page.locator('#payment-form label').allTextContents()).toEqual(['Phone number'])
    await page.getByLabel('Phone number').fill('+351 910 000 001')
    await page.getByRole('button', { name: 'Pay' }).click()
    await page.locator('#payment-form[data-status]').waitFor()
    expect(await page.locator('#payment-form').getAttribute('data-status')).toBe('pending')
    await page.context().close()
  })
})
