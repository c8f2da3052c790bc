import { fileURLToPath } from 'node:url'
import type { Instrument } from '@chargekit/client'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saveScreenshot } from '../../../scripts/launch-chromium'
import { type SentRequest, watchRequests } from './support/sent-requests.js'
import { shopHttp } from './support/shop-http.js'
import { openShopInChromium, type ShopInChromium } from './support/shop-in-chromium.js'
import type { Stack } from './support/stack.js'

const artifacts = fileURLToPath(new URL('../test-artifacts/', import.meta.url))

/**
 * A twentieth of real time: MB WAY's 5-minute window lasts 15 s and a test phone's simulated
 * customer answers after 0.5 s, while a Multibanco reference stays payable for hours.
 */
const timeScale = 0.05

describe('MB WAY and Multibanco in a real browser', () => {
  let stack: Stack
  let page: Page
  let shop: ShopInChromium
  beforeAll(async () => {
    shop = await openShopInChromium({ customerSimulator: true, timeScale })
    ;({ stack, page } = shop)
    // Playwright's clock in the page: the countdown's ticks are moved forward, not waited for.
    await page.clock.install()
  })
  afterAll(async () => {
    await shop?.close()
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

  async function sendPhone(phone: string) {
    await page.getByLabel('MB WAY phone number').fill(phone)
    await page.getByRole('button', { name: 'Pay €18.50 with MB WAY' }).click()
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

  it('MB WAY: phone → "approve in your app" with the masked phone and the time left → paid', async () => {
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

  it('MB WAY: a test phone approves by itself; a refusal fails the order; no answer expires it', async () => {
    const watch = watchRequests(page)
    // 91000…: the sandbox's simulated customer approves after 10 s of its time (0.5 s here).
    await openNewOrder('mbway')
    await sendPhone('910001234')
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

  it('Multibanco: entity, reference and amount as a Portuguese customer reads them → paid', async () => {
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

  it('Multibanco: a reference not paid in time expires the order', async () => {
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
