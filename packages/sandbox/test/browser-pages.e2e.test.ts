import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, ConsoleMessage, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, newWindow, saveScreenshot } from '../../../scripts/launch-chromium'
import { eventually } from '../src/testing/index'
import {
  accountA,
  accountB,
  accountC,
  artifactsDir,
  basic,
  callApi,
  card,
  type DashboardWorld,
  eventsLoaded,
  eventsOf,
  type Flow,
  runDeclinedFlow,
  runPaidFlow,
  signIn,
  startDashboardWorld,
} from './dashboard-fixtures'

// The sandbox's pages in real Chromium against a real sandbox: the dashboard, everything a
// person does with it, and the customer's 3-D Secure page. One file, so one Chromium serves both.
//
// The tests run in four lanes side by side (each a `describe.concurrent` of `it.sequential`
// tests), each lane on a page of its own, in a window of its own: most of a test's time is
// Chromium's, and a page, and each load of one, costs it CPU. A lane changes only what it made,
// or what no other lane looks at.

interface PendingInstrument {
  id: string
  redirect: { url: string; parameters: Record<string, string> }
}

const desktop = { width: 1280, height: 900 }

let world: DashboardWorld
/** Every retry at once (time scale 0), so events there are exhausted as soon as they fail. */
let fastWorld: DashboardWorld
/** A charge of `fastWorld` whose events are being exhausted while the lanes run. */
let exhaustedChargeId: string
let browser: Browser
/** A paid, partly refunded charge of account A, every event delivered. */
let flow: Flow
const pageErrors: string[] = []
// The merchant's return page, where the 3DS page sends the customer back.
const shop = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' })
  response.end('<!doctype html><title>Back at the shop</title><h1>Thanks!</h1>')
})

beforeAll(async () => {
  // The dashboard bundles its browser code on its first page; asked for here, that happens
  // while Chromium starts, and so does the charge the lanes look at.
  const startWorld = (timeScale?: number) =>
    startDashboardWorld(timeScale === undefined ? {} : { timeScale }).then(async (running) => {
      await fetch(`${running.sandbox.url}/dashboard`)
      return running
    })
  const startFlow = async () => {
    world = await startWorld()
    flow = await runPaidFlow(world, accountA, 'ord_browser_1')
    await eventually(
      async () =>
        (await eventsOf(world, accountA, flow.chargeId)).every(
          ({ delivery_status }) => delivery_status === 'delivered',
        ),
      { what: 'every event of the charge delivered' },
    )
  }
  const startExhausting = async () => {
    fastWorld = await startWorld(0)
    const charge = await callApi<{ id: string }>(fastWorld, accountA, 'POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 12,
      currency: 'EUR',
      events_url: `${fastWorld.failingReceiver.url}/events`,
    })
    exhaustedChargeId = charge.id
  }
  ;[browser] = await Promise.all([
    launchChromium(),
    startFlow(),
    startExhausting(),
    new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve)),
  ])
}, 30_000)

afterAll(async () => {
  await browser?.close()
  await world?.close()
  await fastWorld?.close()
  shop.closeAllConnections()
  await new Promise<void>((resolve) => shop.close(() => resolve()))
})

/** A lane's page, in a window of its own; the last test looks at its script errors. */
async function lanePage(): Promise<Page> {
  const page = await newWindow(browser, { viewport: desktop })
  page.on('pageerror', (error) => pageErrors.push(error.message))
  return page
}

/**
 * A lane's page signed in (as account A unless told), by posting the sign-in form's fields from its profile:
 * the profile's cookie store keeps the session, and no page loads for it. (Signing in through
 * the form is another lane's subject.)
 */
async function signedInPage(account = accountA): Promise<Page> {
  const page = await lanePage()
  const answer = await page.request.post(`${world.sandbox.url}/dashboard/session`, {
    form: { account_id: account.id, key: account.key },
    maxRedirects: 0,
  })
  if (answer.status() !== 303) throw new Error(`signing in answered ${answer.status()}`)
  return page
}

function screenshot(page: Page, name: string) {
  return saveScreenshot(page, new URL(`${name}.png`, artifactsDir).pathname)
}

function eventRows(page: Page) {
  return page.locator('table.events tbody tr')
}

/** The delivery states the events table shows, one per row. */
function deliveryStates(page: Page) {
  return page.locator('table.events tbody td[data-label="Delivery"] .badge').allTextContents()
}

async function applyFilters(page: Page, applied: (url: URL) => boolean) {
  await page.getByRole('button', { name: 'Apply filters' }).click()
  await page.waitForURL(applied)
  await eventsLoaded(page)
}

/**
 * Shows the dashboard view at `path` in the dashboard `page` has open, the way the dashboard's
 * own links do: its router renders the view, and the page does not load again (a load costs
 * Chromium a tenth of a second of CPU). Loading a view from its URL is what the tests of sign-in,
 * shared links and reloads do.
 */
async function follow(page: Page, path: string) {
  const target = new URL(path, page.url()).href
  await page.evaluate((href) => {
    const link = Object.assign(document.createElement('a'), { href })
    document.body.append(link)
    link.click()
    link.remove()
  }, target)
  await page.waitForURL((url) => url.href === target)
}

// Generous limits: two CPU cores are shared by Chromium, the sandboxes and other suites.
describe.concurrent('the 3DS page in Chromium', { timeout: 30_000 }, () => {
  let page: Page
  beforeAll(async () => {
    page = await lanePage()
  })

  it.sequential.for([
    ['Authorize', 'authorized'],
    ['Fail authentication', 'invalid'],
  ] as const)(
    '"%s" sends the customer back to the shop and leaves the instrument %s',
    async ([button, status], { expect, onTestFinished }) => {
      const returnUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/orders/9/return`
      const charge = await callApi<{ id: string }>(world, accountA, 'POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 12,
        currency: 'EUR',
        events_url: `${world.receiver.url}/events`,
        channels: ['card_onetime_simulated_acquirer'],
        redirect_url: returnUrl,
        instrument_params: { enable3ds: true, captured_on_creation: false },
      })
      const instrument = await callApi<PendingInstrument>(
        world,
        accountA,
        'POST',
        '/instruments',
        card(charge.id),
      )
      const errors: string[] = []
      const pageError = (error: Error) => errors.push(error.message)
      const consoleError = (message: ConsoleMessage) => {
        if (message.type() === 'error') errors.push(message.text())
      }
      page.on('pageerror', pageError)
      page.on('console', consoleError)
      onTestFinished(() => {
        page.off('pageerror', pageError)
        page.off('console', consoleError)
      })
      await page.goto(instrument.redirect.url)
      await expect(page.title()).resolves.toBe('3-D Secure verification')
      await page.getByRole('button', { name: button }).click()
      // Back at the shop, with the instrument named in the query.
      await page.waitForURL(`${returnUrl}?instrument=${instrument.id}`)
      await expect(page.locator('h1').textContent()).resolves.toBe('Thanks!')
      const stored = await callApi<{ status: string }>(
        world,
        accountA,
        'GET',
        `/instruments/${instrument.id}`,
      )
      expect(stored.status).toBe(status)
      // No CSP violation or script error on the way.
      expect(errors).toEqual([])
    },
  )
})

describe.concurrent('dashboard in Chromium', { timeout: 30_000 }, () => {
  describe.concurrent('one person signing in and out', () => {
    let page: Page
    beforeAll(async () => {
      page = await lanePage()
      // Playwright's clock: a test moves the page's timers (the 3 s refresh) forward instead
      // of waiting for them.
      await page.clock.install()
    })

    it.sequential('refuses wrong credentials and stays on the sign-in form', async ({ expect }) => {
      await page.goto(`${world.sandbox.url}/dashboard`)
      await page.getByLabel('Account id').fill(accountA.id)
      await page.getByLabel('Private key').fill('sk_not_the_key')
      const [response] = await Promise.all([
        page.waitForResponse((answer) => answer.url().endsWith('/dashboard/session')),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ])
      expect(response.status()).toBe(401)
      await expect(page.getByRole('alert').textContent()).resolves.toContain('were refused')
      expect(await page.content()).not.toContain('sk_not_the_key')
      expect(await page.context().cookies()).toEqual([])
    })

    it.sequential('signs in and shows new events as they happen, without a reload', async ({
      expect,
    }) => {
      await signIn(page, world, accountA)
      await eventsLoaded(page)
      const navigations: string[] = []
      const navigated = (frame: Frame) => navigations.push(frame.url())
      page.on('framenavigated', navigated)
      const live = await runPaidFlow(world, accountA, 'ord_browser_live')
      // The page asks for new events every 3 s: its clock jumps there instead of the test waiting.
      await page.clock.runFor(3_000)
      await page.locator(`tr:has(a[href="/dashboard/charges/${live.chargeId}"])`).first().waitFor()
      page.off('framenavigated', navigated)
      expect(navigations).toEqual([])
      await expect.poll(() => page.locator('#status').textContent()).toMatch(/new events?$/)
      await screenshot(page, 'dashboard-events')
    })

    it.sequential('never exposes the private key in the page, the URL, storage or script-readable cookies', async ({
      expect,
    }) => {
      const html = await page.content()
      expect(html).not.toContain(accountA.key)
      expect(page.url()).not.toContain(accountA.key)
      const exposed = await page.evaluate(() => ({
        cookie: document.cookie,
        storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
      }))
      expect(exposed.cookie).toBe('')
      expect(exposed.storage).not.toContain(accountA.key)
      const [cookie] = await page.context().cookies()
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' })
      expect(cookie?.value).not.toContain(accountA.key)
    })

    it.sequential('signs out, and the old session cookie no longer opens anything', async ({
      expect,
    }) => {
      const [cookie] = await page.context().cookies()
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForSelector('body[data-page="sign-in"]')
      expect(await page.context().cookies()).toEqual([])
      const answer = await fetch(`${world.sandbox.url}/dashboard/api/events`, {
        headers: { cookie: `${cookie?.name}=${cookie?.value}` },
      })
      expect(answer.status).toBe(401)
    })

    it.sequential('keeps a shared link through sign-in', async ({ expect }) => {
      await signIn(page, world, accountA, `/dashboard?charge=${flow.chargeId}&dismissed=false`)
      const url = new URL(page.url())
      expect(url.pathname).toBe('/dashboard')
      expect(url.searchParams.get('charge')).toBe(flow.chargeId)
      expect(url.searchParams.get('dismissed')).toBe('false')
    })

    it.sequential('shows a second account none of the first account’s data', async ({ expect }) => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForSelector('body[data-page="sign-in"]')
      await signIn(page, world, accountB)
      await eventsLoaded(page)
      expect(await page.locator(`a[href="/dashboard/charges/${flow.chargeId}"]`).count()).toBe(0)
      expect(await page.content()).not.toContain('ord_browser_1')

      const [event] = await eventsOf(world, accountA, flow.chargeId)
      await follow(page, `/dashboard/events/${event?.id}`)
      await expect.poll(() => page.locator('h1').textContent()).toBe('Event not found')
      await follow(page, `/dashboard/charges/${flow.chargeId}`)
      await expect(page.getByRole('alert').textContent()).resolves.toContain('No such charge')
    })

    // Account B's: a settlement settles every payment of its account, and the other lanes count
    // account A's events.
    it.sequential('shows a settlement and a dispute on the charge timeline', async ({ expect }) => {
      const disputed = await runPaidFlow(world, accountB, 'ord_browser_disputed')
      const dispute = await callApi<{ id: string }>(
        world,
        accountB,
        'POST',
        `/test/payments/${disputed.paymentId}/dispute`,
        { amount: 10 },
      )
      const settlement = await callApi<{ id: string }>(world, accountB, 'POST', '/test/settlements')

      await follow(page, `/dashboard/charges/${disputed.chargeId}`)
      await page.locator('ol.timeline').waitFor()
      const expected = await eventsOf(world, accountB, disputed.chargeId)
      expect(expected.map(({ type }) => type)).toEqual(
        expect.arrayContaining(['dispute.created', 'payment.settled']),
      )
      expect(await page.locator('ol.timeline > li').count()).toBe(expected.length)
      for (const { id } of expected) {
        expect(await page.locator(`ol.timeline a[href="/dashboard/events/${id}"]`).count()).toBe(1)
      }
      for (const [heading, id] of [
        ['Settlements', settlement.id],
        ['Disputes', dispute.id],
      ] as const) {
        const group = page.locator('.object-group', {
          has: page.getByRole('heading', { name: heading }),
        })
        expect(await group.locator(`h4 code:text-is("${id}")`).count(), heading).toBe(1)
      }
      await screenshot(page, 'dashboard-charge-settled-disputed')
    })

    it.sequential('lists the account’s API requests with their integration warnings', async ({
      expect,
    }) => {
      // Account B's list, which only this lane fills: account A's fills up with the other lanes'
      // calls. A request as a PHP integration sends it: a trailing slash, the amount as text, a typo.
      const response = await fetch(`${world.sandbox.apiUrl}/charges/`, {
        method: 'POST',
        headers: {
          authorization: basic(accountB),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          charge_type: 'card_onetime',
          amount: '12.50',
          currency: 'USD',
          events_url: world.receiver.url,
          redirect_ur: 'https://shop.example/back',
        }),
      })
      expect(response.status).toBe(201)
      const requestId = response.headers.get('request-id') ?? ''

      await page.getByRole('link', { name: 'Requests' }).click()
      await page.waitForURL((url) => url.pathname === '/dashboard/requests')
      expect(await page.getByRole('link', { name: 'Requests' }).getAttribute('aria-current')).toBe(
        'page',
      )
      const row = page.locator(`table.requests tr[data-request-id="${requestId}"]`)
      await row.waitFor()
      expect(await row.locator('td[data-label="Request"] code').textContent()).toBe(
        'POST /v2/charges/',
      )
      expect(await row.locator('td[data-label="Status"]').textContent()).toBe('201')
      expect(
        await row
          .locator('.warnings li')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-code'))),
      ).toEqual(['trailing_slash', 'form_body', 'numeric_string', 'unknown_field'])
      const typo = row.locator('.warnings li[data-code="unknown_field"]')
      expect(await typo.textContent()).toContain('did you mean redirect_url?')
      expect(await typo.locator('small code').textContent()).toBe('redirect_url')
      // The page's own polling of this list is not a merchant request: it is never listed.
      const paths = await page
        .locator('table.requests td[data-label="Request"] code')
        .allTextContents()
      expect(paths.filter((path) => path.includes('/v2/requests'))).toEqual([])
      await screenshot(page, 'dashboard-requests')
      // A reload keeps the view.
      await page.reload()
      await row.waitFor()
    })

    it.sequential('filters exhausted deliveries, whose event shows no next attempt', async ({
      expect,
    }) => {
      // The other sandbox on the same host, whose cookies ignore the port: signing in there ends
      // the session with the first.
      const fast = page
      await signIn(fast, fastWorld, accountA)
      await eventsLoaded(fast)
      await expect
        .poll(
          async () =>
            (await eventsOf(fastWorld, accountA, exhaustedChargeId)).map(
              ({ delivery_status }) => delivery_status,
            ),
          { timeout: 15_000 },
        )
        .toEqual(['exhausted', 'exhausted'])

      await fast.getByLabel('Delivery').selectOption('exhausted')
      await applyFilters(fast, (url) => url.searchParams.get('delivery_status') === 'exhausted')

      expect(await deliveryStates(fast)).toEqual(['Exhausted', 'Exhausted'])
      await screenshot(fast, 'dashboard-events-exhausted')
      await eventRows(fast).first().locator('td[data-label="Event"] a').click()
      await fast.locator('pre.json').waitFor()
      expect(await fast.locator('.delivery .next-attempt').textContent()).toBe('none scheduled')
      await expect
        .poll(() => fast.getByRole('heading', { name: /^Retries log/ }).textContent())
        .toBe('Retries log (7)')
    })
  })

  // Account C's: the overview's totals count every charge of the account.
  describe.concurrent('the overview, charges and deliveries views', () => {
    let page: Page
    let paid: Flow
    let declined: { chargeId: string }
    let failing: Flow
    beforeAll(async () => {
      ;[page, paid, declined, failing] = await Promise.all([
        signedInPage(accountC),
        runPaidFlow(world, accountC, 'ord_views_paid'),
        runDeclinedFlow(world, accountC, 'ord_views_declined'),
        runPaidFlow(world, accountC, 'ord_views_failing', world.failingReceiver),
      ])
    })

    it.sequential('draws the overview: volume, charges and declines by code, from the account’s data', async ({
      expect,
    }) => {
      await page.goto(`${world.sandbox.url}/dashboard/overview`)
      const volume = page.locator('figure.chart', { hasText: 'Volume captured, EUR' })
      await volume.waitFor()
      expect(await page.locator('.views a[aria-current="page"]').textContent()).toBe('Overview')
      // Two paid flows of 25.50 each, in this hour's buckets.
      const captured = await volume
        .locator('rect.mark')
        .evaluateAll((marks) => marks.map((mark) => Number(mark.getAttribute('data-value'))))
      expect(captured.reduce((sum, value) => sum + value, 0)).toBe(51)
      const created = await page
        .locator('figure.chart', { hasText: 'Charges created' })
        .locator('rect.mark')
        .evaluateAll((marks) => marks.map((mark) => Number(mark.getAttribute('data-value'))))
      expect(created.reduce((sum, value) => sum + value, 0)).toBe(3)
      const declines = page.locator('figure.ranked li')
      expect(await declines.count()).toBe(1)
      expect(await declines.first().textContent()).toContain('06.02.0000 Unsafe Transaction')
      expect(await declines.first().getAttribute('data-value')).toBe('1')
      await expect(
        page.getByRole('img', { name: /^Volume captured, EUR: captured: highest/ }).count(),
      ).resolves.toBe(1)
      await screenshot(page, 'dashboard-overview')
    })

    it.sequential('lists charges with their status, filters them, and opens one’s timeline', async ({
      expect,
    }) => {
      await page.getByRole('link', { name: 'Charges', exact: true }).click()
      await page.waitForURL((url) => url.pathname === '/dashboard/charges')
      await page.locator('table.charges').waitFor()
      const statuses = () =>
        page
          .locator('table.charges tbody tr')
          .evaluateAll((rows) =>
            rows.map(
              (row) =>
                [row.getAttribute('data-charge-id'), row.getAttribute('data-status')] as const,
            ),
          )
      expect(new Map(await statuses())).toEqual(
        new Map([
          [paid.chargeId, 'partially_refunded'],
          [declined.chargeId, 'declined'],
          [failing.chargeId, 'partially_refunded'],
        ]),
      )
      await page.getByLabel('Status').selectOption('declined')
      await page.getByRole('button', { name: 'Apply filters' }).click()
      await page.waitForURL((url) => url.searchParams.get('status') === 'declined')
      await expect.poll(statuses).toEqual([[declined.chargeId, 'declined']])
      expect(await page.locator('table.charges .failure').textContent()).toBe(
        '06.02.0000 Unsafe Transaction',
      )
      await follow(page, '/dashboard/charges?metadata[order_id]=ord_views_paid&amount_gte=25.50')
      await expect.poll(statuses).toEqual([[paid.chargeId, 'partially_refunded']])
      expect(await page.getByLabel('Metadata value').inputValue()).toBe('ord_views_paid')
      await screenshot(page, 'dashboard-charges')
      await page.locator(`a[href="/dashboard/charges/${paid.chargeId}"]`).click()
      await page.locator('ol.timeline').waitFor()
      expect(await page.locator('.views a[aria-current="page"]').textContent()).toBe('Charges')
    })

    it.sequential('shows an events URL’s attempts and failures, and redelivers a failed event', async ({
      expect,
    }) => {
      const failingUrl = `${world.failingReceiver.url}/events`
      await follow(page, '/dashboard/deliveries')
      const row = page.locator(`table.receivers tr[data-url="${failingUrl}"]`)
      await row.waitFor()
      expect(await row.locator('.badge').textContent()).toBe('0 %')
      await row.getByRole('link').click()
      await page.waitForURL((url) => url.searchParams.get('url') === failingUrl)
      const failures = page.locator('table.failures tbody tr')
      await failures.first().waitFor()
      expect(await failures.first().locator('td.reason').textContent()).toBe('HTTP 500')
      const attempts = page.locator('figure.chart', { hasText: 'Attempts' }).locator('rect.mark')
      const attemptsBefore = await attempts.evaluateAll((marks) =>
        marks.reduce((sum, mark) => sum + Number(mark.getAttribute('data-value')), 0),
      )
      expect(attemptsBefore).toBeGreaterThan(0)
      await screenshot(page, 'dashboard-endpoint')

      await failures.first().getByRole('button', { name: 'Redeliver' }).click()
      await expect
        .poll(() => page.locator('p.action-result').textContent())
        .toMatch(/^Redelivered ev_\w+: the receiver answered HTTP 500\.$/)
      await expect
        .poll(() =>
          attempts.evaluateAll((marks) =>
            marks.reduce((sum, mark) => sum + Number(mark.getAttribute('data-value')), 0),
          ),
        )
        .toBeGreaterThan(attemptsBefore)
      // Automatic retries may have failed since; the manual attempt is among the failures.
      expect(await failures.filter({ hasText: 'redelivered by hand' }).count()).toBeGreaterThan(0)
    })

    it.sequential("reveals the account's signing secret on the deliveries view, on request", async ({
      expect,
    }) => {
      const secret = world.sandbox.accounts.find(({ id }) => id === accountC.id)?.signingSecret
      expect(secret).toMatch(/^whsec_/)
      await page.goto(`${world.sandbox.url}/dashboard/deliveries`)
      const panel = page.locator('details.signing')
      await panel.waitFor()
      // Not in the page until asked for.
      expect(await page.content()).not.toContain(secret)
      await panel.locator('summary').click()
      await expect.poll(() => panel.locator('.signing-secret code').textContent()).toBe(secret)
      await screenshot(page, 'dashboard-signing-secret')
    })

    it.sequential('fits a 390 px phone screen', async ({ expect }) => {
      await page.setViewportSize({ width: 390, height: 844 })
      try {
        for (const [path, loaded] of [
          ['/dashboard/overview', 'figure.chart svg'],
          ['/dashboard/charges', 'table.charges'],
          ['/dashboard/deliveries', 'table.receivers'],
        ] as const) {
          await follow(page, path)
          await page.locator(loaded).first().waitFor()
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
            path,
          ).toBeLessThanOrEqual(390)
        }
      } finally {
        await page.setViewportSize(desktop)
      }
    })
  })

  // The only lane that changes the charge's events (a redelivery, a dismissal).
  describe.concurrent('the events list', () => {
    let page: Page
    beforeAll(async () => {
      page = await signedInPage()
    })

    it.sequential('finds the flow’s events by charge, with the filter in a reload-safe URL', async ({
      expect,
    }) => {
      await page.goto(`${world.sandbox.url}/dashboard`)
      await eventsLoaded(page)
      await page.getByLabel('Charge id').fill(flow.chargeId)
      await page.getByRole('button', { name: 'Apply filters' }).click()
      await page.waitForURL((url) => url.searchParams.get('charge') === flow.chargeId)
      await eventsLoaded(page)
      const expected = await eventsOf(world, accountA, flow.chargeId)
      await expect.poll(() => eventRows(page).count()).toBe(expected.length)
      expect(await eventRows(page).first().getAttribute('data-event-id')).toBe(expected[0]?.id)

      await page.reload()
      await eventsLoaded(page)
      expect(await eventRows(page).count()).toBe(expected.length)
      expect(await page.getByLabel('Charge id').inputValue()).toBe(flow.chargeId)
    })

    it.sequential('finds them by metadata and by several types', async ({ expect }) => {
      const other = await runPaidFlow(world, accountA, 'ord_browser_2')
      await page.getByRole('link', { name: 'Clear' }).click()
      await eventsLoaded(page)
      await page.getByLabel('Key', { exact: true }).fill('order_id')
      await page.getByLabel('Value', { exact: true }).fill('ord_browser_2')
      await page.getByRole('button', { name: 'Apply filters' }).click()
      await page.waitForURL((url) => url.searchParams.get('metadata[order_id]') === 'ord_browser_2')
      await eventsLoaded(page)
      const expected = await eventsOf(world, accountA, other.chargeId)
      await expect.poll(() => eventRows(page).count()).toBe(expected.length)
      expect(
        await page.locator(`table.events a[href="/dashboard/charges/${flow.chargeId}"]`).count(),
      ).toBe(0)

      await follow(
        page,
        `/dashboard?charge=${flow.chargeId}&type=payment.success&type=refund.success`,
      )
      await eventsLoaded(page)
      const types = await page
        .locator('table.events tbody tr td:nth-child(2) small')
        .allTextContents()
      expect(types.sort()).toEqual(['payment.success', 'refund.success'])
      await page.getByText('Types (2 selected)').click()
      expect(await page.getByLabel('Payment success').isChecked()).toBe(true)

      await follow(page, `/dashboard?charge=${flow.chargeId}&delivery_status=delivered`)
      await eventsLoaded(page)
      const states = await page
        .locator('table.events tbody .badge:not(.badge-dismissed)')
        .allTextContents()
      expect(states.length).toBeGreaterThan(0)
      expect(new Set(states)).toEqual(new Set(['Delivered']))

      const later = new Date(Date.now() + 3_600_000)
      later.setMilliseconds(0)
      await follow(page, `/dashboard?created_gte=${later.toISOString()}`)
      await eventsLoaded(page)
      await expect(page.locator('.results').textContent()).resolves.toContain('No events match')
      await page.getByRole('button', { name: 'Apply filters' }).click()
      await page.waitForURL(
        (url) => url.search.includes('type') === false && url.searchParams.has('created_gte'),
      )
      expect(new URL(page.url()).searchParams.get('created_gte')).toBe(later.toISOString())
    })

    it.sequential('finds an object’s events by object id', async ({ expect }) => {
      await follow(page, `/dashboard`)
      await eventsLoaded(page)
      await page.getByLabel('Object id').fill(flow.paymentId)
      await applyFilters(page, (url) => url.searchParams.get('object_id') === flow.paymentId)

      const expected = await callApi<{ collection: { id: string }[] }>(
        world,
        accountA,
        'GET',
        `/events?object_id=${flow.paymentId}`,
      )
      await expect.poll(() => eventRows(page).count()).toBe(expected.collection.length)
      const objects = await page
        .locator('table.events tbody td[data-label="Object"] code')
        .allTextContents()
      expect(new Set(objects)).toEqual(new Set([flow.paymentId]))
    })

    it.sequential('keeps the whole "until" second and the latest-result filter when applying filters', async ({
      expect,
    }) => {
      const [newest] = await eventsOf(world, accountA, flow.chargeId)
      const second = new Date(newest?.created_at ?? '')
      second.setMilliseconds(0)
      await follow(
        page,
        `/dashboard?charge=${flow.chargeId}&created_lte=${second.toISOString()}&result_status=200`,
      )
      await eventsLoaded(page)
      expect(await page.getByLabel('Latest result').inputValue()).toBe('200')
      const shared = new URL(page.url()).search

      await applyFilters(page, (url) => url.search !== shared)

      const applied = new URL(page.url()).searchParams
      expect(applied.get('created_lte')).toBe(new Date(second.getTime() + 999).toISOString())
      expect(applied.get('result_status')).toBe('200')
      expect(applied.get('charge')).toBe(flow.chargeId)
      await expect.poll(() => page.locator(`tr[data-event-id="${newest?.id}"]`).count()).toBe(1)
    })

    it.sequential('opens an event, redelivers it and shows the log grow', async ({ expect }) => {
      const [event] = await eventsOf(world, accountA, flow.chargeId, 'payment.success')
      await follow(page, `/dashboard?charge=${flow.chargeId}`)
      await eventsLoaded(page)
      await page.locator(`a[href="/dashboard/events/${event?.id}"]`).click()
      await page.waitForURL(`**/dashboard/events/${event?.id}`)
      await page.locator('pre.json').waitFor()
      const json = JSON.parse((await page.locator('pre.json').textContent()) ?? '{}')
      expect(json.id).toBe(event?.id)
      expect(json.type).toBe('payment.success')
      const retries = page.getByRole('heading', { name: /^Retries log/ })
      const before = event?.retries_log.length ?? 0
      await expect(retries.textContent()).resolves.toBe(`Retries log (${before})`)

      await page.getByRole('button', { name: 'Redeliver now' }).click()
      await expect.poll(() => retries.textContent()).toBe(`Retries log (${before + 1})`)
      await expect
        .poll(() => page.locator('.action-result').textContent())
        .toContain('answered HTTP 200')
      await page.getByRole('button', { name: 'Redeliver now' }).click()
      await expect.poll(() => retries.textContent()).toBe(`Retries log (${before + 2})`)
      await screenshot(page, 'dashboard-event')
    })

    it.sequential('dismisses it, and the dismissed filter hides it', async ({ expect }) => {
      const eventId = page.url().split('/').pop() as string
      await page.getByRole('button', { name: 'Dismiss' }).click()
      await expect
        .poll(() => page.locator('.action-result').textContent())
        .toContain('Dismissed at')
      expect(await page.getByRole('button', { name: 'Dismissed' }).isDisabled()).toBe(true)

      await follow(page, `/dashboard?charge=${flow.chargeId}`)
      await eventsLoaded(page)
      await expect.poll(() => page.locator(`tr[data-event-id="${eventId}"]`).count()).toBe(1)
      await page.getByLabel('Dismissed').selectOption('false')
      await page.getByRole('button', { name: 'Apply filters' }).click()
      await page.waitForURL((url) => url.searchParams.get('dismissed') === 'false')
      await eventsLoaded(page)
      await expect.poll(() => page.locator(`tr[data-event-id="${eventId}"]`).count()).toBe(0)
      expect(await eventRows(page).count()).toBeGreaterThan(0)
    })

    it.sequential('works with the keyboard alone', async ({ expect }) => {
      await follow(page, `/dashboard?charge=${flow.chargeId}`)
      await eventsLoaded(page)
      const focusedHref = () =>
        page.evaluate(() => document.activeElement?.getAttribute('href') ?? '')
      let href = ''
      for (let presses = 0; presses < 60 && !href.startsWith('/dashboard/events/'); presses++) {
        await page.keyboard.press('Tab')
        href = await focusedHref()
      }
      expect(href).toMatch(/^\/dashboard\/events\//)
      await page.keyboard.press('Enter')
      await page.waitForURL(`**${href}`)
      await page.locator('pre.json').waitFor()
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1')
      let label = ''
      for (let presses = 0; presses < 20 && label !== 'Redeliver now'; presses++) {
        await page.keyboard.press('Tab')
        label = await page.evaluate(() => document.activeElement?.textContent ?? '')
      }
      expect(label).toBe('Redeliver now')
      await page.keyboard.press('Enter')
      await expect.poll(() => page.locator('.action-result').textContent()).toContain('Redelivered')

      await page.goBack()
      await eventsLoaded(page)
      await page.keyboard.press('/')
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('filter-charge')
    })
  })

  describe.concurrent('the charge page', () => {
    let page: Page
    beforeAll(async () => {
      page = await signedInPage()
    })

    it.sequential('shows the charge timeline with its objects and explains a failure code', async ({
      expect,
    }) => {
      await page.goto(`${world.sandbox.url}/dashboard/charges/${flow.chargeId}`)
      await page.locator('ol.timeline').waitFor()
      const expected = await eventsOf(world, accountA, flow.chargeId)
      expect(await page.locator('ol.timeline > li').count()).toBe(expected.length)
      const firstType = await page.locator('ol.timeline > li a').first().textContent()
      expect(firstType).toBe('Charge created')
      for (const id of [flow.paymentId, flow.refundId]) {
        expect(await page.locator(`.cards h4 code:text-is("${id}")`).count()).toBe(1)
      }
      await expect(page.locator('.charge-summary').textContent()).resolves.toContain('€25.50')
      await screenshot(page, 'dashboard-charge')

      const declined = await runDeclinedFlow(world, accountA, 'ord_browser_declined')
      await follow(page, `/dashboard/charges/${declined.chargeId}`)
      await page.locator('ol.timeline').waitFor()
      const failure = page.locator('.cards .failure').first()
      await expect(failure.textContent()).resolves.toContain('06.02.0000 Unsafe Transaction')
      await expect(failure.textContent()).resolves.toContain('Risk')
      await screenshot(page, 'dashboard-charge-declined')

      // Card testing: after five declined cards the charge itself fails, and says why.
      const tested = await runDeclinedFlow(world, accountA, 'ord_browser_card_testing')
      for (let attempt = 0; attempt < 5; attempt++) {
        await callApi(world, accountA, 'POST', '/instruments', {
          charge: tested.chargeId,
          name: 'Card Tester',
          number: '4242424242424242',
          expiration_month: 12,
          expiration_year: 2035,
          cvc: '123',
        })
      }
      await follow(page, `/dashboard/charges/${tested.chargeId}`)
      await page.locator('ol.timeline').waitFor()
      const summary = page.locator('.charge-summary')
      await expect(summary.locator('.failure').textContent()).resolves.toContain(
        '02.01.0000 Too Many Tries',
      )
      expect(await page.locator('ol.timeline > li a:text-is("Charge error")').count()).toBe(1)
    })

    it.sequential('answers for the customer of a pending instrument: pay a reference, decline, expire', async ({
      expect,
    }) => {
      /** A charge of `chargeType` and its instrument, pending, with the charge's page open. */
      const openPending = async (chargeType: string, details: Record<string, unknown> = {}) => {
        const charge = await callApi<{ id: string }>(world, accountA, 'POST', '/charges', {
          charge_type: chargeType,
          amount: 19.9,
          currency: 'EUR',
          events_url: `${world.receiver.url}/events`,
        })
        const instrument = await callApi<PendingInstrument>(
          world,
          accountA,
          'POST',
          '/instruments',
          { charge: charge.id, ...details },
        )
        await follow(page, `/dashboard/charges/${charge.id}`)
        const panel = page.getByRole('region', { name: 'Waiting for the customer' })
        await panel.waitFor()
        return { charge, instrument, panel }
      }
      const result = page.locator('p.action-result')
      const timeline = page.locator('ol.timeline')

      // Multibanco: the reference to pay, and only "Pay reference" besides "Expire now".
      const multibanco = await openPending('multibanco')
      const { entity, reference } = multibanco.instrument.redirect.parameters
      const facts = await multibanco.panel.locator('dl').textContent()
      for (const shown of [
        `Entity${entity}`,
        `Reference${reference}`,
        'Amount to pay€19.90',
        'Expires',
      ]) {
        expect(facts).toContain(shown)
      }
      expect(await multibanco.panel.getByRole('button').allTextContents()).toEqual([
        'Pay reference',
        'Expire now',
      ])
      await screenshot(page, 'dashboard-pending-reference')
      await multibanco.panel.getByRole('button', { name: 'Pay reference' }).click()
      await expect
        .poll(() => result.textContent())
        .toBe(`Paid: instrument ${multibanco.instrument.id} is now authorized.`)
      await timeline.locator('a:text-is("Payment success")').waitFor()
      expect(await page.getByRole('region', { name: 'Waiting for the customer' }).count()).toBe(0)

      // MB WAY: the phone the notification went to; the customer declines.
      const mbway = await openPending('mbway', { phone_number: '+351 912 345 678' })
      expect(await mbway.panel.locator('dl').textContent()).toContain('Phone91*****78')
      await mbway.panel.getByRole('button', { name: 'Decline' }).click()
      await expect
        .poll(() => result.textContent())
        .toBe(
          `Declined: instrument ${mbway.instrument.id} is now invalid (03.00.0001 Processor Declined).`,
        )
      await timeline.locator('a:text-is("Instrument invalid")').waitFor()

      // PayPal: a link to its approval page; it expires now.
      const paypal = await openPending('paypal')
      expect(
        await paypal.panel.getByRole('link', { name: 'Approval page' }).getAttribute('href'),
      ).toBe(paypal.instrument.redirect.url)
      await paypal.panel.getByRole('button', { name: 'Expire now' }).click()
      await expect
        .poll(() => result.textContent())
        .toBe(
          `Expired: instrument ${paypal.instrument.id} is now invalid (03.00.0002 Instrument Expired).`,
        )
      const expired = await callApi<{ status: string }>(
        world,
        accountA,
        'GET',
        `/instruments/${paypal.instrument.id}`,
      )
      expect(expired.status).toBe('invalid')

      // An answer the instrument no longer waits for shows the service's reason.
      const approvedElsewhere = await openPending('mbway', { phone_number: '912345678' })
      await callApi(
        world,
        accountA,
        'POST',
        `/test/instruments/${approvedElsewhere.instrument.id}/approve`,
      )
      await approvedElsewhere.panel.getByRole('button', { name: 'Approve' }).click()
      await expect
        .poll(() => result.textContent())
        .toContain(
          `Approve failed: Instrument ${approvedElsewhere.instrument.id} is not waiting for the customer (status authorized)`,
        )
    })

    it.sequential('shows a failing delivery’s next attempt and filters failing deliveries', async ({
      expect,
    }) => {
      const failing = await runPaidFlow(
        world,
        accountA,
        'ord_browser_failing',
        world.failingReceiver,
      )
      await expect
        .poll(
          async () =>
            (await eventsOf(world, accountA, failing.chargeId)).every(
              ({ delivery_status }) => delivery_status === 'failing',
            ),
          { timeout: 15_000 },
        )
        .toBe(true)
      const [event] = await eventsOf(world, accountA, failing.chargeId, 'payment.success')

      await follow(page, `/dashboard/events/${event?.id}`)
      await page.locator('pre.json').waitFor()
      expect(await page.locator('.delivery .badge').textContent()).toBe('Failing')
      expect(await page.locator('.delivery .result-status').textContent()).toBe('HTTP 500')
      // A retry is always ahead (5 s, then 5 min at time scale 1); its time is shown, not "none".
      const next = await page.locator('.delivery .next-attempt time').getAttribute('datetime')
      expect(Date.parse(next ?? '')).toBeGreaterThan(Date.parse(event?.created_at ?? ''))
      await screenshot(page, 'dashboard-event-failing')

      await follow(page, `/dashboard`)
      await eventsLoaded(page)
      await page.getByLabel('Delivery').selectOption('failing')
      await applyFilters(page, (url) => url.searchParams.get('delivery_status') === 'failing')
      expect(new Set(await deliveryStates(page))).toEqual(new Set(['Failing']))
      expect(
        await page.locator(`table.events a[href="/dashboard/charges/${failing.chargeId}"]`).count(),
      ).toBeGreaterThan(0)
    })

    it.sequential('fits a 390 px phone screen', async ({ expect }) => {
      await page.setViewportSize({ width: 390, height: 844 })
      try {
        const [event] = await eventsOf(world, accountA, flow.chargeId, 'refund.success')
        const views = [
          ['dashboard-phone-events', '/dashboard', 'table.events'],
          ['dashboard-phone-event', `/dashboard/events/${event?.id}`, 'pre.json'],
          ['dashboard-phone-charge', `/dashboard/charges/${flow.chargeId}`, 'ol.timeline'],
          ['dashboard-phone-requests', '/dashboard/requests', 'table.requests'],
        ] as const
        for (const [name, path, loaded] of views) {
          await follow(page, path)
          await page.locator(loaded).waitFor()
          const width = await page.evaluate(() => document.documentElement.scrollWidth)
          expect(width, name).toBeLessThanOrEqual(390)
          await screenshot(page, name)
        }
      } finally {
        await page.setViewportSize(desktop)
      }
    })

    it.sequential('loads the events view in under 200 KB transferred', async ({ expect }) => {
      // Nothing cached: every byte of the page's first load is transferred again.
      const client = await page.context().newCDPSession(page)
      try {
        await client.send('Network.enable')
        await client.send('Network.setCacheDisabled', { cacheDisabled: true })
        let transferred = 0
        const loading = new Set<string>()
        client.on('Network.requestWillBeSent', ({ requestId }) => loading.add(requestId))
        client.on('Network.loadingFailed', ({ requestId }) => loading.delete(requestId))
        client.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
          transferred += encodedDataLength
          loading.delete(requestId)
        })
        await page.goto(`${world.sandbox.url}/dashboard`)
        await eventsLoaded(page)
        // Every request the first load made has finished: nothing is left to count.
        await expect.poll(() => loading.size).toBe(0)
        console.log(
          `RESULT dashboard first load: ${transferred} bytes transferred (HTML, CSS, JS, events list)`,
        )
        expect(transferred).toBeGreaterThan(1000)
        expect(transferred).toBeLessThan(200 * 1024)
      } finally {
        await client.detach()
      }
    })
  })
})

// After every lane above has finished.
describe('what the pages left behind', () => {
  it('never wrote a private key or Basic credentials to the sandbox log', () => {
    const refused = { id: accountA.id, key: 'sk_not_the_key' }
    const secrets = [accountA, accountB, refused].flatMap((account) => [
      account.key,
      basic(account).slice('Basic '.length),
    ])
    for (const logs of [world.logs, fastWorld.logs]) {
      // The log did record the session: sign-ins and the page's API calls.
      expect(logs.some((line) => line.includes('POST /dashboard/session'))).toBe(true)
      expect(logs.some((line) => line.includes('GET /dashboard/api/events'))).toBe(true)
      for (const secret of secrets) {
        expect(logs.filter((line) => line.includes(secret))).toEqual([])
      }
    }
  })

  it('raised no script error on any page', () => {
    expect(pageErrors).toEqual([])
  })
})
