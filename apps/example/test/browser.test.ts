import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../scripts/launch-chromium'
import { shopHttp } from './support/shop-http.js'
import { type Stack, startStack } from './support/stack.js'

const artifacts = fileURLToPath(new URL('../test-artifacts/', import.meta.url))

describe('the shop in a real browser', () => {
  let stack: Stack
  let browser: Browser
  let page: Page
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    stack = await startStack()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })

  it('buys a product with a test card and sees the order turn paid (live)', async () => {
    await page.goto(stack.shop.url)
    await page.screenshot({ path: `${artifacts}products.png`, fullPage: true })
    await page.locator('[data-product="pour-over-kettle"] button', { hasText: 'Buy' }).click()
    await page.waitForURL(/\/orders\/ord_/)
    await page.getByLabel('Name on card').fill('Ada Lovelace')
    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByLabel('Month').fill('12')
    await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2))
    await page.getByLabel('CVC').fill('123')
    await page.screenshot({ path: `${artifacts}card-form.png`, fullPage: true })
    await page.getByRole('button', { name: /^Pay / }).click()
    // The badge turns paid through the webhook, pushed to the open page without a reload.
    await page.locator('.order-summary [data-status="paid"]').waitFor({ timeout: 20_000 })
    expect(await page.locator('.details').textContent()).toContain('•••• 4242')
    expect(await page.content()).not.toContain('4242 4242 4242 4242')
    await page.locator('[data-event-type="payment.success"]').waitFor({ timeout: 20_000 })
    await page.screenshot({ path: `${artifacts}order-paid.png`, fullPage: true })
  })

  it('after a partial refund, the open order page offers what is left to refund (live)', async () => {
    const http = shopHttp(stack)
    const orderId = await http.checkout('hand-grinder', 'pay')
    await http.payWithCard(orderId)
    await http.waitForOrder(orderId, (o) => o.status === 'paid' && o.payment_id !== null)
    const orderUrl = `${stack.shop.url}/orders/${orderId}`
    const refundAmount = (tab: Page) => tab.getByLabel(/^Amount/)
    // This tab stays open on the order while the refund is made from a second one.
    await page.goto(orderUrl)
    expect(await refundAmount(page).inputValue()).toBe('129.00')
    const other = await browser.newPage()
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
    await page.screenshot({ path: `${artifacts}partial-refund.png`, fullPage: true })
    // What the customer typed survives the next update.
    await refundAmount(page).fill('12.34')
    await http.post(`/orders/${orderId}/refund`, {
      request_key: await http.requestKey(orderId),
      amount: '50.00',
    })
    await page.locator('.details dd', { hasText: '$79.00' }).waitFor()
    expect(await refundAmount(page).inputValue()).toBe('12.34')
  })

  it('3-D Secure: approves on the issuer page and returns to a paid order', async () => {
    await page.goto(stack.shop.url)
    const product = page.locator('[data-product="espresso-beans"]')
    await product.locator('select[name="flow"]').selectOption('three_ds')
    await product.getByRole('button', { name: 'Buy' }).click()
    await page.waitForURL(/\/orders\/ord_/)
    await page.getByLabel('Name on card').fill('Grace Hopper')
    await page.getByLabel('Card number').fill('4242424242424242')
    await page.getByLabel('Month').fill('01')
    await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 1))
    await page.getByLabel('CVC').fill('321')
    await page.getByRole('button', { name: /^Pay / }).click()
    await page.waitForURL((url) => url.origin === new URL(stack.sandbox.url).origin)
    await page.screenshot({ path: `${artifacts}three-ds-challenge.png`, fullPage: true })
    await page.locator('button[value="authorize"], button:has-text("Authorize")').first().click()
    await page.waitForURL(/\/orders\/ord_/)
    await page.locator('.order-summary [data-status="paid"]').waitFor({ timeout: 20_000 })
    await page.screenshot({ path: `${artifacts}three-ds-paid.png`, fullPage: true })
  })

  it('picks a test error and sees the decline', async () => {
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
    await page.screenshot({ path: `${artifacts}scenario-decline.png`, fullPage: true })
  })

  it('fits every page in a phone’s width', async () => {
    const http = shopHttp(stack)
    const unpaid = await http.checkout('hand-grinder', 'pay')
    await page.setViewportSize({ width: 390, height: 844 })
    const pages = {
      products: '/',
      'card form': `/orders/${unpaid}`,
      orders: '/orders',
      scenarios: '/scenarios',
    }
    const wider: Record<string, number> = {}
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(`${stack.shop.url}${path}`)
      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      if (width > 390) wider[name] = width
      expect(await page.locator('link[rel="icon"]').count(), `${name} has a favicon`).toBe(1)
      await page.screenshot({
        path: `${artifacts}phone-${name.replace(' ', '-')}.png`,
        fullPage: true,
      })
    }
    expect(wider).toEqual({})
  })
})
