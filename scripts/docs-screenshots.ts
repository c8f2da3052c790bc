// `pnpm docs:screenshots`: the pictures in the READMEs and docs/, taken from a real run. It starts
// the sandbox and the example shop as the demo does, plays an hour of merchant traffic against
// them (with the sandbox's clock running ahead in steps, so the charts have an hour to draw),
// buys in the shop with a card and with 3-D Secure in Chromium, and photographs the shop, the
// 3-D Secure page and every dashboard view into docs/images/. Run it again after changing a page.
import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { type ChargekitClient, createClient } from '@chargekit/client'
import { encodeTestAmount } from '@chargekit/errors'
import { type SandboxClock, startSandbox } from '@chargekit/sandbox'
import type { Page } from 'playwright-core'
import { readEnvironment } from '../apps/example/src/config.js'
import { startShopService } from '../apps/example/src/start-shop-service.js'
import { launchChromium, newWindow } from './launch-chromium.js'

const imagesDir = fileURLToPath(new URL('../docs/images/', import.meta.url))
const desktop = { width: 1200, height: 760 }

/** The system clock plus an offset the script moves forward: the sandbox lives the last hour fast. */
function steppingClock(startOffsetMs: number): SandboxClock & { step(ms: number): void } {
  let offset = startOffsetMs
  const now = () => Date.now() + offset
  return {
    now,
    step(ms) {
      offset = Math.min(0, offset + ms)
    },
    wakeAt(at, wake) {
      let timer: NodeJS.Timeout
      // Checked again at least every 200 ms, so a step forward is noticed.
      const wait = () => {
        timer = setTimeout(
          () => (now() >= at ? wake() : wait()),
          Math.min(200, Math.max(0, at - now())),
        ).unref()
      }
      wait()
      return () => clearTimeout(timer)
    },
  }
}

interface Receiver {
  url: string
  server: Server
  /** Deliveries it is still answering. */
  inFlight(): number
}

/** A merchant's receiver answering `status(n)` for its n-th delivery after `delayMs(n)`. */
async function receiver(
  status: (index: number) => number,
  delayMs: (index: number) => number,
): Promise<Receiver> {
  let index = 0
  let answering = 0
  const server = createServer((request, response) => {
    const n = index++
    answering++
    request.resume()
    setTimeout(() => {
      answering--
      response.writeHead(status(n)).end()
    }, delayMs(n))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, server, inFlight: () => answering }
}

/**
 * Waits until no receiver is answering: the clock may then step without cutting an attempt
 * short (an attempt's time-out is read on the sandbox's clock).
 */
async function settled(receivers: readonly Receiver[]) {
  for (let quiet = 0; quiet < 3; ) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    quiet = receivers.every((each) => each.inFlight() === 0) ? quiet + 1 : 0
  }
}

/** A repeatable sequence in [0, 1), so two runs draw the same traffic. */
function sequence(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

const card = {
  name: 'Ada Lovelace',
  number: '4242424242424242',
  expiration_month: 12,
  expiration_year: new Date().getUTCFullYear() + 3,
  cvc: '123',
}

const declineCodes = ['03.03.0000', '02.03.0000', '03.03.0001', '06.02.0000', '04.01.0000']

/** An hour of a small shop's API traffic, in 20 steps of three minutes. */
async function playTraffic(
  client: ChargekitClient,
  clock: ReturnType<typeof steppingClock>,
  eventsUrls: readonly string[],
  receivers: readonly Receiver[],
) {
  const random = sequence(29)
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T
  for (let step = 0; step < 20; step++) {
    const orders = 1 + Math.floor(random() * 4)
    for (let order = 0; order < orders; order++) {
      const eventsUrl = pick(eventsUrls)
      const currency = random() < 0.8 ? 'EUR' : 'USD'
      const amount = Math.round((8 + random() * 120) * 100) / 100
      const declined = random() < 0.2
      const charge = await client.charges.create({
        charge_type: 'card_onetime',
        amount: declined ? encodeTestAmount(pick(declineCodes), 'instrument') : amount,
        currency,
        events_url: eventsUrl,
        metadata: { order_id: `ord_${1000 + step * 10 + order}` },
        ...(declined ? { channels: ['card_onetime_no_processor'] } : {}),
      })
      const instrument = await client.instruments
        .create({ ...card, charge: charge.id })
        .catch(() => undefined)
      if (instrument === undefined || random() > 0.15) continue
      const payment = instrument.last_payment
      if (payment) await client.payments.refund(payment.id, { amount: Math.floor(amount / 2) })
    }
    await settled(receivers)
    clock.step(3 * 60_000)
  }
}

/** The page's top `height` pixels (the window's by default) as docs/images/{name}.png. */
async function shoot(page: Page, name: string, height = desktop.height) {
  await page.screenshot({
    path: `${imagesDir}${name}.png`,
    clip: { x: 0, y: 0, width: desktop.width, height },
    fullPage: true,
    animations: 'disabled',
  })
  console.log(`docs/images/${name}.png`)
}

async function main() {
  mkdirSync(imagesDir, { recursive: true })
  const clock = steppingClock(-60 * 60_000)
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', clock, timeScale: 0.002 })
  const account = sandbox.accounts[0]
  if (!account) throw new Error('The sandbox started without an account.')
  const client = createClient({
    accountId: account.id,
    privateKey: account.key,
    baseUrl: sandbox.url,
  })
  const env = readEnvironment({ SHOP_PORT: '0', SANDBOX_PORT: '0' })
  const service = await startShopService(env, client, {
    url: sandbox.url,
    publicKey: account.publicKey,
    dashboardUrl: `${sandbox.url}/dashboard`,
    customerSimulator: true,
  })
  const healthy = await receiver(
    () => 204,
    (n) => 15 + (n % 7) * 6,
  )
  const flaky = await receiver(
    (n) => (n % 5 === 3 ? 503 : 200),
    (n) => 40 + ((n * 37) % 160) + (n % 11 === 0 ? 700 : 0),
  )
  const browser = await launchChromium()
  try {
    const flakyUrl = `${flaky.url}/webhooks/chargekit`
    await playTraffic(
      client,
      clock,
      [
        `${healthy.url}/hooks`,
        flakyUrl,
        flakyUrl,
        // Nobody listens there: every attempt fails without an answer.
        'http://127.0.0.1:9/gone',
      ],
      [healthy, flaky],
    )
    await settled([healthy, flaky])
    clock.step(60 * 60_000)

    const page = await newWindow(browser, { viewport: desktop })
    // The shop: products, the card form, the paid order, and the 3-D Secure page on the way.
    await page.goto(service.shop.url)
    await shoot(page, 'shop-products')
    await page.locator('[data-product="pour-over-kettle"] button', { hasText: 'Buy' }).click()
    await page.waitForURL(/\/orders\/ord_/)
    await page.getByLabel('Name on card').fill('Ada Lovelace')
    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByLabel('Month').fill('12')
    await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2))
    await page.getByLabel('CVC').fill('123')
    await shoot(page, 'shop-card-form')
    await page.getByRole('button', { name: /^Pay / }).click()
    await page.locator('.order-summary [data-status="paid"]').waitFor({ timeout: 20_000 })
    await page.locator('[data-event-type="payment.success"]').waitFor({ timeout: 20_000 })
    await shoot(page, 'shop-order-paid')

    await page.goto(service.shop.url)
    const beans = page.locator('[data-product="espresso-beans"]')
    await beans.locator('select[name="flow"]').selectOption('three_ds')
    await beans.getByRole('button', { name: 'Buy' }).click()
    await page.waitForURL(/\/orders\/ord_/)
    await page.getByLabel('Name on card').fill('Ada Lovelace')
    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByLabel('Month').fill('12')
    await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2))
    await page.getByLabel('CVC').fill('123')
    await page.getByRole('button', { name: /^Pay / }).click()
    await page.waitForURL((url) => url.origin === new URL(sandbox.url).origin)
    await shoot(page, 'three-d-secure')
    await page.getByRole('button', { name: 'Authorize' }).click()
    await page.locator('.order-summary [data-status="paid"]').waitFor({ timeout: 20_000 })

    // The dashboard, signed in through its form.
    await page.goto(`${sandbox.url}/dashboard/overview`)
    await page.getByLabel('Account id').fill(account.id)
    await page.getByLabel('Private key').fill(account.key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('.charts figure').first().waitFor()
    await shoot(page, 'dashboard-overview', 1080)

    await page.goto(`${sandbox.url}/dashboard/charges`)
    await page.locator('table.charges').waitFor()
    await shoot(page, 'dashboard-charges')

    const paidCharge = await page
      .locator('table.charges tr[data-status="partially_refunded"] a')
      .first()
      .getAttribute('href')
    await page.goto(`${sandbox.url}${paidCharge}`)
    await page.locator('ol.timeline').waitFor()
    await shoot(page, 'dashboard-charge', 1000)

    await page.goto(`${sandbox.url}/dashboard`)
    await page.locator('table.events').waitFor()
    await shoot(page, 'dashboard-events')

    await page.goto(`${sandbox.url}/dashboard/deliveries`)
    await page.locator('table.receivers').waitFor()
    await shoot(page, 'dashboard-deliveries')

    await page.goto(
      `${sandbox.url}/dashboard/deliveries/endpoint?${new URLSearchParams({ url: flakyUrl })}`,
    )
    await page.locator('table.failures').waitFor()
    await shoot(page, 'dashboard-endpoint', 1150)
  } finally {
    await browser.close()
    await service.stop()
    await sandbox.close()
    for (const { server } of [healthy, flaky]) {
      server.closeAllConnections()
      server.close()
    }
  }
}

await main()
