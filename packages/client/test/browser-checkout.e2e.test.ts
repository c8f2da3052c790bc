import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { encodeTestAmount } from '@chargekit/errors'
import { authorization, type TestSandbox } from '@chargekit/sandbox/testing'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../scripts/launch-chromium'
import { card, chargeParams } from './support/flows'
import { startClientSandbox, testClient } from './support/sandbox'

// A shop page on one origin (localhost) sends the card with the browser client straight to the
// sandbox on another (127.0.0.1): real CORS, in real Chromium.

let env: TestSandbox
let browser: Browser
let shopOrigin = ''
let publicKey = ''
const sandboxLog: { message: string; account: unknown }[] = []
const shopRequests: { method: string; url: string; body: string }[] = []
let bundle = ''

const shop = createServer(async (request, response) => {
  shopRequests.push({
    method: request.method ?? '',
    url: request.url ?? '',
    body: await text(request),
  })
  response.writeHead(200, { 'content-type': 'text/html' })
  response.end(
    `<!doctype html><title>Shop</title><h1>${request.url?.startsWith('/orders/') ? 'Order' : 'Checkout'}</h1><script>${bundle}</script>`,
  )
})

async function text(request: IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of request) body += chunk
  return body
}

beforeAll(async () => {
  const built = await build({
    entryPoints: [join(import.meta.dirname, '..', 'src', 'browser.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'chargekitBrowser',
    conditions: ['@chargekit/source'],
    write: false,
    logLevel: 'silent',
  })
  bundle = built.outputFiles[0]?.text ?? ''
  const record = (message: string, fields?: Record<string, unknown>) =>
    sandboxLog.push({ message, account: fields?.account })
  env = await startClientSandbox({ logger: { info: record, warn: record, error: record } })
  publicKey = env.sandbox.accounts[0]?.publicKey ?? ''
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve))
  shopOrigin = `http://localhost:${(shop.address() as AddressInfo).port}`
  browser = await launchChromium()
}, 30_000)
afterAll(async () => {
  await browser?.close()
  await env?.close()
  shop.closeAllConnections()
  await new Promise<void>((resolve) => shop.close(() => resolve()))
})

type BrowserEntry = typeof import('../src/browser')

describe('a checkout page on another origin', () => {
  it('sends the card to the service with the public key, and 3-D Secure returns to the shop', async () => {
    const server = testClient(env.sandbox.url)
    const secured = await server.charges.create(
      chargeParams(env.eventsUrl, {
        instrument_params: { enable3ds: true },
        redirect_url: `${shopOrigin}/orders/7`,
      }),
    )
    const declined = await server.charges.create(
      chargeParams(env.eventsUrl, { amount: encodeTestAmount('03.03.0000', 'instrument') }),
    )
    const page = await browser.newPage()
    const sent: { method: string; url: string; body: string }[] = []
    page.on('request', (request) =>
      sent.push({ method: request.method(), url: request.url(), body: request.postData() ?? '' }),
    )
    try {
      await page.goto(`${shopOrigin}/checkout`)
      const result = await page.evaluate(
        async ({ publicKey, publicKeyAuthorization, baseUrl, securedId, declinedId, card }) => {
          const { createBrowserClient, PaymentError } = (
            globalThis as unknown as { chargekitBrowser: BrowserEntry }
          ).chargekitBrowser
          const client = createBrowserClient({ publicKey, baseUrl })
          const types = await client.charges.types()
          const instrument = await client.instruments.create({ charge: securedId, ...card })
          let decline = ''
          try {
            await client.instruments.create({ charge: declinedId, ...card })
          } catch (error) {
            decline =
              error instanceof PaymentError
                ? `${error.code} ${error.designation} ${error.element}`
                : String(error)
          }
          // What the public key may not do is refused, and the page can read why.
          const refused = await fetch(`${baseUrl}/v2/payments`, {
            method: 'POST',
            headers: {
              authorization: publicKeyAuthorization,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ instrument: instrument.id, amount: 1, currency: 'USD' }),
          })
          return {
            types: types.map((type) => type.id),
            instrument: {
              id: instrument.id,
              status: instrument.status,
              url: instrument.redirect?.url,
            },
            decline,
            refused: { status: refused.status, body: await refused.json() },
          }
        },
        {
          publicKey,
          publicKeyAuthorization: authorization(publicKey, ''),
          baseUrl: env.sandbox.url,
          securedId: secured.id,
          declinedId: declined.id,
          card,
        },
      )
      expect(result.types).toContain('card_onetime')
      expect(result.instrument.status).toBe('pending')
      expect(result.decline).toBe('03.03.0000 Card is Declined instrument')
      expect(result.refused.status).toBe(403)
      expect(result.refused.body.failure_code).toBe('05.03.0000')
      // Chromium sent preflights without credentials, and the sandbox answered them.
      expect(sandboxLog).toContainEqual({ message: 'OPTIONS /v2/instruments 204', account: null })

      // 3-D Secure by navigation, then back at the shop with the instrument named.
      await page.goto(result.instrument.url as string)
      await page.getByRole('button', { name: 'Authorize' }).click()
      await page.waitForURL(`${shopOrigin}/orders/7?instrument=${result.instrument.id}`)
      const status = await page.evaluate(
        async ({ publicKey, baseUrl }) => {
          const { createBrowserClient } = (
            globalThis as unknown as { chargekitBrowser: BrowserEntry }
          ).chargekitBrowser
          const id = new URLSearchParams(location.search).get('instrument') ?? ''
          return (await createBrowserClient({ publicKey, baseUrl }).instruments.retrieve(id)).status
        },
        { publicKey, baseUrl: env.sandbox.url },
      )
      expect(status).toBe('authorized')
    } finally {
      await page.close()
    }

    // The card went to the sandbox only: never to the shop, in no request the page sent.
    const withCard = sent.filter((request) => request.body.includes(card.number))
    expect(withCard.map((request) => new URL(request.url).origin)).toEqual([
      env.sandbox.url,
      env.sandbox.url,
    ])
    // The shop only served pages: GETs with no body, no card number anywhere in what it got.
    const toShop = sent.filter((request) => request.url.startsWith(shopOrigin))
    expect(toShop.length).toBeGreaterThanOrEqual(2)
    expect(toShop.every((request) => request.method === 'GET' && request.body === '')).toBe(true)
    // Its server saw the same (and the favicon requests the page does not report).
    expect(shopRequests.every((request) => request.method === 'GET' && request.body === '')).toBe(
      true,
    )
    expect(JSON.stringify(shopRequests)).not.toContain(card.number)
  }, 60_000)
})
