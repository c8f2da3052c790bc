import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../scripts/launch-chromium'
import { cardFor, type Harness, startHarness } from './sandbox-harness'

let harness: Harness
let browser: Browser
/** One browser profile for both tests; each opens its own page. */
let context: BrowserContext
// The merchant's return page, where the 3DS page sends the customer back.
const shop = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' })
  response.end('<!doctype html><title>Back at the shop</title><h1>Thanks!</h1>')
})
let returnUrl = ''

beforeAll(async () => {
  ;[harness, browser] = await Promise.all([
    startHarness(),
    launchChromium(),
    new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve)),
  ])
  returnUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/orders/9/return`
  context = await browser.newContext()
})
afterAll(async () => {
  await browser?.close()
  await harness.close()
  shop.closeAllConnections()
  await new Promise<void>((resolve) => shop.close(() => resolve()))
})

async function pendingInstrument() {
  const charge = await harness.api('POST', '/charges', {
    charge_type: 'card_onetime',
    amount: 12,
    currency: 'EUR',
    events_url: harness.eventsUrl,
    channels: ['card_onetime_simulated_acquirer'],
    redirect_url: returnUrl,
    instrument_params: { enable3ds: true, captured_on_creation: false },
  })
  const instrument = await harness.api('POST', '/instruments', cardFor(charge.body.id))
  return instrument.body as { id: string; redirect: { url: string } }
}

describe('the 3DS page in a real browser', () => {
  it.each([
    ['Authorize', 'authorized'],
    ['Fail authentication', 'invalid'],
  ])(
    '"%s" sends the customer back to the shop and leaves the instrument %s',
    async (button, status) => {
      const instrument = await pendingInstrument()
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      await page.goto(instrument.redirect.url)
      await expect(page.title()).resolves.toBe('3-D Secure verification')
      await page.getByRole('button', { name: button }).click()
      // Back at the shop, with the instrument named in the query.
      await page.waitForURL(`${returnUrl}?instrument=${instrument.id}`)
      await expect(page.locator('h1').textContent()).resolves.toBe('Thanks!')
      const stored = await harness.api('GET', `/instruments/${instrument.id}`)
      expect(stored.body.status).toBe(status)
      // No CSP violation or script error on the way.
      expect(errors).toEqual([])
      await page.close()
    },
  )
})
