import { fileURLToPath } from 'node:url'
import type { Instrument } from '@chargekit/client'
import { formatTestAmount } from '@chargekit/errors'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saveScreenshot } from '../../../scripts/launch-chromium'
import type { Database } from '../src/db/open-database.js'
import { parseMajorAmount } from '../src/money.js'
import { checkout } from '../src/payments/checkout.js'
import { type SentRequest, watchRequests } from './support/sent-requests.js'
import { shopHttp } from './support/shop-http.js'
import { openShopInChromium, type ShopInChromium } from './support/shop-in-chromium.js'
import type { Stack } from './support/stack.js'

const artifacts = fileURLToPath(new URL('../test-artifacts/', import.meta.url))

/**
 * A twentieth of real time: MB WAY's 5-minute window lasts 15 s and a test phone's simulated
 * customer answers after 0.5 s, while a Multibanco reference stays payable for hours. Nothing
 * the card tests wait for is timed.
 */
const timeScale = 0.05

// One stack and one Chromium for the file: starting them is most of a browser test's cost. The
// tests run in three lanes side by side (each a `describe.concurrent` of `it.sequential` tests),
// each lane on a page of its own, in a window of its own, and with orders of its own: a test
// mostly waits for Chromium and the servers, which the other lanes' tests keep busy meanwhile.
let stack: Stack
let shop: ShopInChromium
beforeAll(async () => {
  shop = await openShopInChromium({ customerSimulator: true, timeScale })
  ;({ stack } = shop)
})
afterAll(async () => {
  await shop?.close()
})

async function fillCard(page: Page, card: { number: string; cvc: string; year?: string }) {
  await page.getByLabel('Name on card').fill('Ada Lovelace')
  await page.getByLabel('Card number').fill(card.number)
  await page.getByLabel('Month').fill('12')
  await page.getByLabel('Year').fill(card.year ?? String(new Date().getUTCFullYear() + 2))
  await page.getByLabel('CVC').fill(card.cvc)
}

/** Every row of every table of the shop's database, as text. */
async function databaseText(database: Database): Promise<string> {
  const tables = await database.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
  )
  expect(tables.map((table) => table.table_name)).toEqual(
    expect.arrayContaining(['orders', 'order_events', 'processed_events', 'scenario_runs']),
  )
  const rows = await Promise.all(
    tables.map(({ table_name }) => database.query(`SELECT * FROM "${table_name}"`)),
  )
  return JSON.stringify(rows, (_key, value) =>
    typeof value === 'bigint' ? value.toString() : value,
  )
}

describe.concurrent('cards in a real browser', () => {
  /**
   * The card number and the CVC went to the sandbox, in the request that created the instrument,
   * and nowhere else: no request to the shop carried them, and neither its database nor its log
   * holds them.
   */
  async function expectCardOnlySentToService(
    sent: readonly SentRequest[],
    card: { number: string; cvc: string },
  ) {
    const pan = card.number.replace(/\s/g, '')
    const cvc = new RegExp(`(?<![0-9a-f])${card.cvc}(?![0-9a-f])`)
    const carrying = sent.filter((request) => `${request.url} ${request.body}`.includes(pan))
    expect(carrying.length).toBeGreaterThan(0)
    for (const request of carrying) {
      expect(new URL(request.url).origin).toBe(new URL(stack.sandbox.url).origin)
      expect(new URL(request.url).pathname).toBe('/v2/instruments')
      expect(request.body).toContain(`"cvc":"${card.cvc}"`)
    }
    const toShop = sent.filter((request) => request.url.startsWith(stack.shop.url))
    expect(toShop.length).toBeGreaterThan(0)
    for (const request of toShop) {
      const text = decodeURIComponent(`${request.url} ${request.body}`).replace(/[\s-]/g, '')
      expect(text).not.toContain(pan)
      expect(text).not.toMatch(cvc)
    }
    const stored = await databaseText(stack.database)
    expect(stored).not.toContain(pan)
    expect(stored).not.toContain(pan.slice(0, 12))
    expect(stored).not.toMatch(cvc)
    const logged = stack.logs.join('\n')
    expect(logged).not.toContain(pan)
    expect(logged).not.toMatch(cvc)
  }

  describe.concurrent('paying, on a desktop and on a phone', () => {
    let page: Page
    beforeAll(async () => {
      page = await shop.newPage()
    })

    it.sequential('buys with the test card: the card goes to the sandbox only, and the order turns paid (live)', async ({
      expect,
    }) => {
      const watch = watchRequests(page)
      await page.goto(stack.shop.url)
      await saveScreenshot(page, `${artifacts}products.png`)
      await page.locator('[data-product="pour-over-kettle"] button', { hasText: 'Buy' }).click()
      await page.waitForURL(/\/orders\/ord_/)
      const card = { number: '4242 4242 4242 4242', cvc: '7391' }
      await fillCard(page, card)
      await saveScreenshot(page, `${artifacts}card-form.png`)
      await page.getByRole('button', { name: /^Pay / }).click()
      // The badge turns paid through the webhook, pushed to the open page without a reload.
      await page.locator('.order-summary [data-status="paid"]').waitFor({ timeout: 20_000 })
      expect(await page.locator('.details').textContent()).toContain('•••• 4242')
      await page.locator('[data-event-type="payment.success"]').waitFor({ timeout: 20_000 })
      await saveScreenshot(page, `${artifacts}order-paid.png`)
      await expectCardOnlySentToService(watch, card)
    })

    it.sequential('3-D Secure: the page follows the issuer page and comes back to a paid order', async ({
      expect,
    }) => {
      const watch = watchRequests(page)
      await page.goto(stack.shop.url)
      const product = page.locator('[data-product="espresso-beans"]')
      await product.locator('select[name="flow"]').selectOption('three_ds')
      await product.getByRole('button', { name: 'Buy' }).click()
      await page.waitForURL(/\/orders\/ord_/)
      const orderUrl = page.url()
      const card = { number: '4242424242424242', cvc: '8264' }
      await fillCard(page, card)
      await page.getByRole('button', { name: /^Pay / }).click()
      await page.waitForURL((url) => url.origin === new URL(stack.sandbox.url).origin)
      await saveScreenshot(page, `${artifacts}three-ds-challenge.png`)
      await page.getByRole('button', { name: 'Authorize' }).click()
      // Back on the order page itself (the shop read the instrument and dropped it from the URL).
      await page.waitForURL(orderUrl)
      await page.locator('.order-summary [data-status="paid"]').waitFor({ timeout: 20_000 })
      expect(await page.locator('.details').textContent()).toContain('•••• 4242')
      await saveScreenshot(page, `${artifacts}three-ds-paid.png`)
      await expectCardOnlySentToService(watch, card)
    })

    it.sequential('fits every page in a phone’s width', async ({ expect, onTestFinished }) => {
      const http = shopHttp(stack)
      const unpaid = await http.checkout('hand-grinder', 'pay')
      const reference = await http.checkout('espresso-cups', 'multibanco')
      const mbway = await http.checkout('espresso-cups', 'mbway')
      await page.setViewportSize({ width: 390, height: 844 })
      onTestFinished(() => page.setViewportSize({ width: 1100, height: 900 }))
      const pages = {
        products: '/',
        'card form': `/orders/${unpaid}`,
        'mbway form': `/orders/${mbway}`,
        'multibanco reference': `/orders/${reference}`,
        orders: '/orders',
        scenarios: '/scenarios',
      }
      const wider: Record<string, number> = {}
      for (const [name, path] of Object.entries(pages)) {
        await page.goto(`${stack.shop.url}${path}`)
        const width = await page.evaluate(() => document.documentElement.scrollWidth)
        if (width > 390) wider[name] = width
        expect(await page.locator('link[rel="icon"]').count(), `${name} has a favicon`).toBe(1)
        await saveScreenshot(page, `${artifacts}phone-${name.replaceAll(' ', '-')}.png`)
      }
      expect(wider).toEqual({})
    })
  })

  describe.concurrent('declines, refunds and test errors', () => {
    let page: Page
    beforeAll(async () => {
      page = await shop.newPage()
    })

    it.sequential('an empty month and a declined card are explained in the form; the sixth decline makes the shop start a new charge', async ({
      expect,
    }) => {
      const watch = watchRequests(page)
      await page.goto(stack.shop.url)
      await page.locator('[data-product="hand-grinder"] button', { hasText: 'Buy' }).click()
      await page.waitForURL(/\/orders\/ord_/)
      const orderId = new URL(page.url()).pathname.split('/').pop() ?? ''
      const { charge_id: firstCharge } = await shopHttp(stack).order(orderId)
      const card = { number: '4242 4242 4242 4242', cvc: '5108', year: '2020' }
      await fillCard(page, card)
      // A month left empty: the service's answer says what the field is, and the form shows it
      // under the field.
      await page.getByLabel('Month').fill('')
      await page.getByRole('button', { name: /^Pay / }).click()
      await page
        .locator('[data-error-for="expiration_month"]')
        .filter({ hasText: "Expected the card's expiry month, a number from 1 to 12" })
        .waitFor()
      expect(await page.getByLabel('Month').getAttribute('aria-invalid')).toBe('true')
      await page.getByLabel('Month').fill('12')
      const decline = page.locator('form[data-payment-form] [data-payment-decline]')
      for (let attempt = 1; attempt <= 5; attempt++) {
        await page.getByRole('button', { name: /^Pay / }).click()
        await decline.locator('.decline-code', { hasText: '03.00.0002' }).waitFor()
        expect(await decline.locator('.decline-designation').textContent()).toBe(
          'Instrument Expired',
        )
        expect(await decline.locator('.decline-next').textContent()).toBe(
          'Nothing was charged. Check the card details, or use another card.',
        )
        // Ready for the next try.
        await page.locator('form[data-payment-form] button:not([disabled])').waitFor()
        if (attempt === 1) {
          await saveScreenshot(page, `${artifacts}card-declined.png`)
        }
      }
      // The sixth declined card stops the charge; the page shows why, asks the shop for a new
      // charge and reloads, and the reloaded form pays the new charge.
      await page.getByRole('button', { name: /^Pay / }).click()
      await page.locator(`form[data-payment-form]:not([data-charge="${firstCharge}"])`).waitFor()
      const stopped = page.locator('.decline[data-step="charge"][data-code="02.01.0000"]')
      await stopped.waitFor()
      const renewed = await shopHttp(stack).order(orderId)
      expect(renewed.charge_id).not.toBe(firstCharge)
      expect(await page.locator('form[data-payment-form]').getAttribute('data-charge')).toBe(
        renewed.charge_id,
      )
      expect(await stopped.locator('.decline-designation').textContent()).toBe('Too Many Tries')
      // The new charge takes a good card.
      await fillCard(page, { ...card, year: String(new Date().getUTCFullYear() + 1) })
      await page.getByRole('button', { name: /^Pay / }).click()
      await page.locator('.order-summary [data-status="paid"]').waitFor({ timeout: 20_000 })
      await expectCardOnlySentToService(watch, card)
    })

    it.sequential('the decline test card the form lists is declined with its designation', async ({
      expect,
    }) => {
      const watch = watchRequests(page)
      await page.goto(stack.shop.url)
      await page.locator('[data-product="espresso-beans"] button', { hasText: 'Buy' }).click()
      await page.waitForURL(/\/orders\/ord_/)
      // The card form lists the sandbox's test cards, folded under its hint.
      const listed = page.locator('[data-test-cards] [data-test-card="4000000000000002"]')
      expect(await listed.isVisible()).toBe(false)
      await page.locator('[data-test-cards] summary').click()
      expect(await listed.locator('td').allTextContents()).toEqual([
        '4000 0000 0000 0002',
        'Declined by the issuer',
        '03.03.0000 ',
      ])
      expect(await listed.locator('abbr').getAttribute('title')).toBe('Card is Declined')
      await saveScreenshot(page, `${artifacts}test-cards.png`)

      const card = { number: '4000 0000 0000 0002', cvc: '4417' }
      await fillCard(page, card)
      await page.getByRole('button', { name: /^Pay / }).click()
      const decline = page.locator('form[data-payment-form] [data-payment-decline]')
      await decline.locator('.decline-code', { hasText: '03.03.0000' }).waitFor()
      expect(await decline.locator('.decline-designation').textContent()).toBe('Card is Declined')
      expect(await decline.locator('.decline-next').textContent()).toBe(
        'Nothing was charged. Check the card details, or use another card.',
      )
      // The webhook brings the same decline to the order, explained.
      const onOrder = page.locator('.decline[data-code="03.03.0000"][data-step="instrument"]')
      await onOrder.waitFor()
      expect(await onOrder.locator('.decline-designation').textContent()).toBe('Card is Declined')
      expect(await onOrder.locator('.decline-description').textContent()).toBe(
        'Refused by the issuer',
      )
      await expectCardOnlySentToService(watch, card)
    })

    it.sequential('a coded test amount declines at the card authorization with its catalogue code', async ({
      expect,
    }) => {
      const watch = watchRequests(page)
      const amount = formatTestAmount('02.03.0000', 'instrument')
      const { order } = await checkout(
        stack.context,
        {
          productId: 'test-amount',
          description: `Test amount ${amount}`,
          amountMinor: parseMajorAmount(amount, 'USD') ?? 0n,
          currency: 'USD',
        },
        'pay',
      )
      await page.goto(`${stack.shop.url}/orders/${order.id}`)
      const card = { number: '4242424242424242', cvc: '6620' }
      await fillCard(page, card)
      await page.getByRole('button', { name: /^Pay / }).click()
      const decline = page.locator('form[data-payment-form] [data-payment-decline]')
      await decline.locator('.decline-code', { hasText: '02.03.0000' }).waitFor()
      expect(await decline.locator('.decline-designation').textContent()).toBe('Insufficient Funds')
      expect(await decline.locator('.decline-next').textContent()).toBe(
        'Nothing was charged. Try again in a moment, or use another card.',
      )
      // The webhook brings the same decline to the order.
      await page.locator('.decline[data-code="02.03.0000"][data-step="instrument"]').waitFor()
      await expectCardOnlySentToService(watch, card)
    })

    it.sequential('after a partial refund, the open order page offers what is left to refund (live)', async ({
      expect,
    }) => {
      const http = shopHttp(stack)
      const orderId = await http.checkout('hand-grinder', 'pay')
      await http.payWithCard(orderId)
      await http.waitForOrder(orderId, (o) => o.status === 'paid' && o.payment_id !== null)
      const orderUrl = `${stack.shop.url}/orders/${orderId}`
      const refundAmount = (tab: Page) => tab.getByLabel(/^Amount/)
      // This tab stays open on the order while the refund is made from a second one.
      await page.goto(orderUrl)
      expect(await refundAmount(page).inputValue()).toBe('129.00')
      const other = await page.context().newPage()
      try {
        await other.goto(orderUrl)
        await refundAmount(other).fill('29.00')
        await other.getByRole('button', { name: 'Refund' }).click()
        await other.locator('.order-summary [data-status="partially_refunded"]').waitFor()
        expect(await refundAmount(other).inputValue()).toBe('100.00')
      } finally {
        await other.close()
      }
      // The open tab swaps the new panel in: its untouched field now shows what is left.
      await page.locator('.order-summary [data-status="partially_refunded"]').waitFor()
      expect(await refundAmount(page).inputValue()).toBe('100.00')
      await saveScreenshot(page, `${artifacts}partial-refund.png`)
      // What the customer typed survives the next update.
      await refundAmount(page).fill('12.34')
      await http.post(`/orders/${orderId}/refund`, {
        request_key: await http.requestKey(orderId),
        amount: '50.00',
      })
      await page.locator('.details dd', { hasText: '$79.00' }).waitFor()
      expect(await refundAmount(page).inputValue()).toBe('12.34')
    })

    it.sequential('picks a test error and sees the decline', async ({ expect }) => {
      await page.goto(`${stack.shop.url}/scenarios`)
      await page.getByLabel('Error').selectOption('02.03.0000')
      await page.getByRole('radio', { name: /Capture/ }).check()
      await page.getByRole('button', { name: 'Run scenario' }).click()
      const decline = page.locator('.scenario-result .decline')
      await decline.waitFor()
      const text = (selector: string) => decline.locator(selector).textContent()
      expect(await text('.decline-code')).toBe('02.03.0000')
      expect(await text('.decline-designation')).toBe('Insufficient Funds')
      expect(await text('.decline-description')).toBe('Not enough funds')
      expect(await text('.decline-retry')).toContain('Yes')
      await saveScreenshot(page, `${artifacts}scenario-decline.png`)
    })
  })
})

describe.concurrent('MB WAY and Multibanco in a real browser', () => {
  let page: Page
  beforeAll(async () => {
    page = await shop.newPage()
    // Playwright's clock in the page: the countdown's ticks are moved forward, not waited for.
    await page.clock.install()
  })

  /** Buys the euro-priced product with `flow` from the product page; returns the order id. */
  async function buy(flow: 'mbway' | 'multibanco') {
    await page.goto(stack.shop.url)
    const product = page.locator('[data-product="espresso-cups"]')
    await product.locator('select[name="flow"]').selectOption(flow)
    await product.getByRole('button', { name: 'Buy' }).click()
    await page.waitForURL(/\/orders\/ord_/)
    return new URL(page.url()).pathname.split('/').pop() ?? ''
  }

  /** The same checkout as `buy`, posted by the test, and the new order's page opened. */
  async function openNewOrder(flow: 'mbway' | 'multibanco') {
    const orderId = await shopHttp(stack).checkout('espresso-cups', flow)
    await page.goto(`${stack.shop.url}/orders/${orderId}`)
    return orderId
  }

  /** What the customer does in their phone's app, or at the ATM: the sandbox's test helper. */
  async function answerAsCustomer(orderId: string, answer: 'approve' | 'pay' | 'expire') {
    const { instrument_id: instrumentId } = await shopHttp(stack).order(orderId)
    expect(instrumentId).not.toBeNull()
    const instrument = (await stack.client.request({
      method: 'POST',
      path: `/test/instruments/${instrumentId}/${answer}`,
    })) as Instrument
    expect(instrument.id).toBe(instrumentId)
  }

  async function submitPhone(phone: string) {
    await page.getByLabel('MB WAY phone number').fill(phone)
    await page.getByRole('button', { name: 'Pay €18.50 with MB WAY' }).click()
  }

  /** Sends the phone number; resolves once the page asks for the approval in the app. */
  async function sendPhone(phone: string) {
    await submitPhone(phone)
    await page.locator('[data-customer-action="mbway"]').waitFor()
  }

  const badge = (status: string) => page.locator(`.order-summary [data-status="${status}"]`)

  /**
   * The whole phone number went to the sandbox, in the request that created the instrument, and
   * nowhere else: the shop's requests, database and log hold at most the masked number.
   */
  async function expectPhoneOnlySentToService(sent: readonly SentRequest[], digits: string) {
    const carrying = sent.filter((request) =>
      `${request.url} ${request.body}`.replace(/\s/g, '').includes(digits),
    )
    expect(carrying.length).toBeGreaterThan(0)
    for (const request of carrying) {
      expect(new URL(request.url).origin).toBe(new URL(stack.sandbox.url).origin)
      expect(new URL(request.url).pathname).toBe('/v2/instruments')
    }
    const toShop = sent.filter((request) => request.url.startsWith(stack.shop.url))
    expect(toShop.length).toBeGreaterThan(0)
    for (const request of toShop) {
      expect(decodeURIComponent(`${request.url} ${request.body}`).replace(/\s/g, '')).not.toContain(
        digits,
      )
    }
    const tables = ['orders', 'order_events', 'processed_events']
    for (const table of tables) {
      const rows = await stack.database.query(`SELECT * FROM ${table}`)
      expect(JSON.stringify(rows, (_key, value) => String(value))).not.toContain(digits)
    }
    expect(stack.logs.join('\n')).not.toContain(digits)
  }

  it.sequential('MB WAY: phone → "approve in your app" with the masked phone and the time left → paid', async ({
    expect,
  }) => {
    const watch = watchRequests(page)
    const orderId = await buy('mbway')
    await saveScreenshot(page, `${artifacts}mbway-form.png`)
    // Typed the way people write it: the service reads the number without the spaces.
    await sendPhone('912 345 678')
    const panel = page.locator('[data-customer-action="mbway"]')
    expect(await panel.locator('h2').textContent()).toBe('Approve the payment in your MB WAY app')
    expect(await panel.locator('[data-phone-number]').textContent()).toBe('91*****78')
    await expect(badge('awaiting_customer').count()).resolves.toBe(1)
    // The time left counts down in the page (15 s at this time scale).
    const countdown = panel.locator('time[data-countdown]')
    const first = (await countdown.textContent()) ?? ''
    expect(first).toMatch(/^0:[01]\d$/)
    await page.clock.runFor(1_000)
    await page.waitForFunction(
      (shown) => document.querySelector('time[data-countdown]')?.textContent !== shown,
      first,
    )
    await saveScreenshot(page, `${artifacts}mbway-awaiting.png`)

    await answerAsCustomer(orderId, 'approve')
    // The open page turns paid through the webhook, without a reload.
    await badge('paid').waitFor()
    await page.locator('[data-event-type="payment.success"]').waitFor()
    expect(await page.locator('.details').textContent()).toContain('MB WAY 91*****78')
    const order = await shopHttp(stack).order(orderId)
    expect(order.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['instrument.pending', 'instrument.authorized', 'payment.success']),
    )
    expect(order).toMatchObject({ captured: '18.50', currency: 'EUR' })
    await saveScreenshot(page, `${artifacts}mbway-paid.png`)
    await expectPhoneOnlySentToService(watch, '912345678')
  })

  it.sequential('MB WAY: a test phone approves by itself; a refusal fails the order; no answer expires it', async ({
    expect,
  }) => {
    const watch = watchRequests(page)
    // 91000…: the sandbox's simulated customer approves after 10 s of its time (0.5 s here).
    // (Maybe before the page shows the request: it is not waited for.)
    await openNewOrder('mbway')
    await submitPhone('910001234')
    await badge('paid').waitFor()

    // Refused in the app, through the shop's sandbox-only panel (the shop's server calls the
    // test helper with its private key). A number that is not a Portuguese mobile first: the
    // service's answer names the field, and the form shows it there.
    await openNewOrder('mbway')
    await page.getByLabel('MB WAY phone number').fill('212 345 678')
    await page.getByRole('button', { name: 'Pay €18.50 with MB WAY' }).click()
    const problem = page.locator('[data-error-for="phone_number"]')
    await problem.filter({ hasText: 'Expected a Portuguese mobile number' }).waitFor()
    expect(await page.getByLabel('MB WAY phone number').getAttribute('aria-invalid')).toBe('true')
    await sendPhone('913000111')
    await page.getByRole('button', { name: 'Refuse in the app' }).click()
    await badge('failed').waitFor()
    expect(await page.locator('.note').textContent()).toContain(
      'The payment request was refused in the MB WAY app.',
    )
    const decline = page.locator('.decline[data-step="instrument"]')
    expect(await decline.getAttribute('data-code')).toBe('03.00.0001')
    expect(await page.locator('[data-payment-form]').count()).toBe(0)
    await saveScreenshot(page, `${artifacts}mbway-refused.png`)

    // Not answered within the window.
    const unanswered = await openNewOrder('mbway')
    await sendPhone('914000222')
    await answerAsCustomer(unanswered, 'expire')
    await badge('expired').waitFor()
    expect(await page.locator('.note').textContent()).toContain(
      'The MB WAY request expired before it was approved.',
    )
    expect(await page.locator('.decline').getAttribute('data-code')).toBe('03.00.0002')
    for (const phone of ['910001234', '913000111', '914000222']) {
      await expectPhoneOnlySentToService(watch, phone)
    }
  })

  it.sequential('Multibanco: entity, reference and amount as a Portuguese customer reads them → paid', async ({
    expect,
  }) => {
    const orderId = await buy('multibanco')
    // Checkout asked the service for the reference: the order page shows it at once.
    const panel = page.locator('[data-customer-action="multibanco"]')
    await panel.waitFor()
    const { customer_action: action, instrument_id: instrumentId } =
      await shopHttp(stack).order(orderId)
    const instrument = await stack.client.instruments.retrieve(instrumentId ?? '')
    const parameters = instrument.redirect?.parameters as Record<string, unknown>
    expect(action).toEqual({
      method: 'multibanco',
      entity: parameters.entity,
      reference: parameters.reference,
      amount: '18.50',
      currency: 'EUR',
      expires_at: parameters.expires_at,
    })
    const reference = String(parameters.reference)
    expect(await panel.locator('[data-entity]').textContent()).toBe('21098')
    expect(await panel.locator('[data-reference]').textContent()).toBe(
      `${reference.slice(0, 3)} ${reference.slice(3, 6)} ${reference.slice(6)}`,
    )
    expect(await panel.locator('[data-amount]').textContent()).toBe('18,50\u00a0€')
    // Payable for 3 days of the sandbox's time, shown in Lisbon time.
    const expiresAt = String(parameters.expires_at)
    expect(await panel.locator('time[data-expires-at]').getAttribute('datetime')).toBe(expiresAt)
    expect(await panel.locator('time[data-expires-at]').textContent()).toBe(
      new Intl.DateTimeFormat('pt-PT', {
        dateStyle: 'short',
        timeStyle: 'short',
        timeZone: 'Europe/Lisbon',
      }).format(new Date(expiresAt)),
    )
    await saveScreenshot(page, `${artifacts}multibanco-reference.png`)

    await answerAsCustomer(orderId, 'pay')
    await badge('paid').waitFor()
    await page.locator('[data-event-type="payment.success"]').waitFor()
    expect(await page.locator('.details').textContent()).toContain(
      `Multibanco reference ${reference.slice(0, 3)} ${reference.slice(3, 6)}`,
    )
    // The service refunds no Multibanco payment: the page offers no refund form.
    expect(await page.locator('form.refund-form').count()).toBe(0)
    await saveScreenshot(page, `${artifacts}multibanco-paid.png`)
  })

  it.sequential('Multibanco: a reference not paid in time expires the order', async ({
    expect,
  }) => {
    const orderId = await openNewOrder('multibanco')
    await page.locator('[data-customer-action="multibanco"]').waitFor()
    await answerAsCustomer(orderId, 'expire')
    await badge('expired').waitFor()
    expect(await page.locator('.note').textContent()).toContain(
      'The Multibanco reference expired unpaid.',
    )
    expect(await page.locator('[data-customer-action]').count()).toBe(0)
    // Final: the page stops listening, and the late helper answers nothing new.
    expect(await page.locator('#order-live').getAttribute('data-final')).toBe('true')
    await saveScreenshot(page, `${artifacts}multibanco-expired.png`)
  })
})
