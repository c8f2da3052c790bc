import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Account,
  accountA,
  accountB,
  basic,
  type DashboardWorld,
  eventsOf,
  runPaidFlow,
  startDashboardWorld,
} from './dashboard-fixtures'

// The dashboard's HTTP surface as a browser would meet it: sign-in, the session cookie, CSRF
// checks, the API proxy and its account isolation, sign-out, and the cached assets.

let world: DashboardWorld
let flowA: Awaited<ReturnType<typeof runPaidFlow>>

beforeAll(async () => {
  world = await startDashboardWorld()
  flowA = await runPaidFlow(world, accountA, 'ord_http_a')
}, 30_000)
afterAll(() => world?.close())

const url = (path: string) => `${world.sandbox.url}${path}`

/** A Multibanco charge of `account` and its instrument, waiting for the reference to be paid. */
async function pendingMultibanco(account: Account) {
  const call = (path: string, body: unknown) =>
    fetch(`${world.sandbox.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: basic(account), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.json() as Promise<{ id: string; status: string }>)
  const charge = await call('/charges', {
    charge_type: 'multibanco',
    amount: 19.9,
    currency: 'EUR',
    events_url: `${world.receiver.url}/events`,
  })
  const instrument = await call('/instruments', { charge: charge.id })
  expect(instrument.status).toBe('pending')
  return { chargeId: charge.id, instrumentId: instrument.id }
}

function signInRequest(
  account: { id: string; key: string },
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  return fetch(url('/dashboard/session'), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ account_id: account.id, key: account.key, ...extra }),
  })
}

interface Session {
  cookie: string
  csrf: string
}

async function signIn(account: Account): Promise<Session> {
  const response = await signInRequest(account)
  expect(response.status).toBe(303)
  const cookie = sessionCookie(response)
  const page = await fetch(url('/dashboard'), { headers: { cookie } })
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await page.text())?.[1]
  if (csrf === undefined) throw new Error('the app page has no csrf-token meta')
  return { cookie, csrf }
}

function sessionCookie(response: Response): string {
  const header = response.headers
    .getSetCookie()
    .find((value) => value.startsWith('chargekit_dashboard_session='))
  if (header === undefined) throw new Error('no session cookie was set')
  return header.split(';')[0] as string
}

function apiCall(
  session: Session | undefined,
  method: string,
  path: string,
  headers: Record<string, string> = {},
) {
  return fetch(url(`/dashboard/api${path}`), {
    method,
    headers: { ...(session ? { cookie: session.cookie } : {}), ...headers },
  })
}

describe('sign-in', () => {
  it('is where the sandbox’s own address leads', async () => {
    const response = await fetch(url('/'), { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/dashboard')
  })

  it('shows the sign-in form, uncached, to a visitor without a session', async () => {
    const response = await fetch(url('/dashboard/charges/ch_shared?x=1'))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await response.text()
    expect(html).toContain('action="/dashboard/session"')
    expect(html).toContain('name="next" value="/dashboard/charges/ch_shared?x=1"')
    expect(html).not.toContain('csrf-token')
    expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,/)
  })

  it('refuses a wrong key with 401, no cookie, and without echoing the key', async () => {
    const response = await signInRequest({ id: accountA.id, key: 'sk_wrong_guess_42' })
    expect(response.status).toBe(401)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(response.headers.get('www-authenticate')).toBeNull()
    const html = await response.text()
    expect(html).toContain('were refused')
    expect(html).not.toContain('sk_wrong_guess_42')
    expect(html).toContain(`value="${accountA.id}"`)
  })

  it('refuses an unknown account and empty or malformed fields', async () => {
    expect((await signInRequest({ id: 'acct_nobody', key: accountA.key })).status).toBe(401)
    expect((await signInRequest({ id: accountA.id, key: '' })).status).toBe(400)
    expect((await signInRequest({ id: `${accountA.id}:x`, key: accountA.key })).status).toBe(400)
  })

  it('refuses a sign-in posted from another site', async () => {
    for (const headers of [{ origin: 'http://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
      const response = await signInRequest(accountA, {}, headers)
      expect(response.status).toBe(403)
      expect(response.headers.getSetCookie()).toEqual([])
    }
  })

  it('sets an HttpOnly, SameSite=Strict, /dashboard cookie holding a random token, not the credentials', async () => {
    const response = await signInRequest(accountA, {}, { origin: world.sandbox.url })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/dashboard')
    const header = response.headers.getSetCookie()[0] ?? ''
    expect(header).toMatch(/; HttpOnly/i)
    expect(header).toMatch(/; SameSite=Strict/i)
    expect(header).toMatch(/; Path=\/dashboard(;|$)/)
    const token = decodeURIComponent(header.split(';')[0]?.split('=')[1] ?? '')
    expect(token).toMatch(/^[\w-]{43}$/)
    expect(header).not.toContain(accountA.key)
    expect(header).not.toContain(accountA.id)
    const second = sessionCookie(await signInRequest(accountA))
    expect(second).not.toBe(header.split(';')[0])
  })

  it('returns to the requested dashboard page, and never to another site', async () => {
    const cases: [string, string][] = [
      ['/dashboard/charges/ch_1?tab=x', '/dashboard/charges/ch_1?tab=x'],
      ['https://evil.example/dashboard', '/dashboard'],
      ['//evil.example/dashboard', '/dashboard'],
      ['/v2/events', '/dashboard'],
      ['/dashboardx', '/dashboard'],
    ]
    for (const [next, expected] of cases) {
      const response = await signInRequest(accountA, { next })
      expect(response.headers.get('location'), next).toBe(expected)
    }
  })

  it('serves the app page with the account id and a CSRF token, never the key', async () => {
    const session = await signIn(accountA)
    const response = await fetch(url('/dashboard'), { headers: { cookie: session.cookie } })
    expect(response.headers.get('cache-control')).toBe('no-store')
    const html = await response.text()
    expect(html).toContain('data-page="app"')
    expect(html).toContain(accountA.id)
    expect(html).not.toContain(accountA.key)
    expect(html).not.toContain(basicToken(accountA))
    const probe = await fetch(url('/dashboard/session'), { headers: { cookie: session.cookie } })
    expect(await probe.json()).toEqual({ account_id: accountA.id })
  })
})

describe('API proxy', () => {
  it('answers 401 without a session, with no Basic challenge that would open a browser dialog', async () => {
    const response = await apiCall(undefined, 'GET', '/events')
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBeNull()
    const forged = await apiCall(
      { cookie: 'chargekit_dashboard_session=forged', csrf: '' },
      'GET',
      '/events',
    )
    expect(forged.status).toBe(401)
  })

  it('lists the account’s events as the API does, uncached', async () => {
    const session = await signIn(accountA)
    const response = await apiCall(session, 'GET', `/events?charge=${flowA.chargeId}&per_page=100`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('request-id')).toMatch(/^req_/)
    const list = (await response.json()) as { collection: { id: string }[] }
    const direct = await eventsOf(world, accountA, flowA.chargeId)
    expect(list.collection.map((event) => event.id)).toEqual(direct.map((event) => event.id))
    expect(direct.length).toBeGreaterThan(3)
  })

  it('keeps each session to its own account', async () => {
    const sessionB = await signIn(accountB)
    const [eventA] = await eventsOf(world, accountA, flowA.chargeId)
    expect((await apiCall(sessionB, 'GET', `/events/${eventA?.id}`)).status).toBe(404)
    expect((await apiCall(sessionB, 'GET', `/charges/${flowA.chargeId}`)).status).toBe(404)
    const list = (await (await apiCall(sessionB, 'GET', '/events?per_page=100')).json()) as {
      collection: { charge?: { id: string } }[]
    }
    expect(list.collection.some((event) => event.charge?.id === flowA.chargeId)).toBe(false)
    const dismiss = await apiCall(sessionB, 'POST', `/events/${eventA?.id}/dismiss`, {
      'x-csrf-token': sessionB.csrf,
    })
    expect(dismiss.status).toBe(404)
  })

  it('lets through only the calls the page makes', async () => {
    const session = await signIn(accountA)
    const refused: [string, string][] = [
      ['POST', '/charges'],
      ['GET', '/payments'],
      ['GET', `/payments/${flowA.paymentId}`],
      ['POST', `/payments/${flowA.paymentId}/refund`],
      ['DELETE', `/events/${flowA.chargeId}`],
      ['GET', '/events/%2e%2e'],
      ['POST', '/test/settlements'],
      ['POST', `/test/payments/${flowA.paymentId}/dispute`],
      ['POST', `/test/instruments/${flowA.paymentId}/refund`],
    ]
    for (const [method, path] of refused) {
      const response = await apiCall(session, method, path, { 'x-csrf-token': session.csrf })
      expect(response.status, `${method} ${path}`).toBe(404)
    }
  })

  it('requires the session’s CSRF token for redeliver and dismiss', async () => {
    const session = await signIn(accountA)
    const [event] = await eventsOf(world, accountA, flowA.chargeId, 'charge.created')
    const path = `/events/${event?.id}/dismiss`
    expect((await apiCall(session, 'POST', path)).status).toBe(403)
    expect((await apiCall(session, 'POST', path, { 'x-csrf-token': 'x'.repeat(43) })).status).toBe(
      403,
    )
    const other = await signIn(accountA)
    expect((await apiCall(session, 'POST', path, { 'x-csrf-token': other.csrf })).status).toBe(403)
    const crossSite = await apiCall(session, 'POST', path, {
      'x-csrf-token': session.csrf,
      origin: 'http://evil.example',
    })
    expect(crossSite.status).toBe(403)
    const [still] = await eventsOf(world, accountA, flowA.chargeId, 'charge.created')
    expect(still?.dismissed_at).toBeNull()

    const dismissed = await apiCall(session, 'POST', path, { 'x-csrf-token': session.csrf })
    expect(dismissed.status).toBe(200)
    expect(((await dismissed.json()) as { dismissed_at: string }).dismissed_at).toEqual(
      expect.any(String),
    )
  })

  it('answers for the customer through the test helpers, with the CSRF token only', async () => {
    const session = await signIn(accountA)
    const { instrumentId, chargeId } = await pendingMultibanco(accountA)
    const path = `/test/instruments/${instrumentId}/pay`
    expect((await apiCall(session, 'POST', path)).status).toBe(403)
    // Another account's instrument is not found, as in the API.
    const sessionB = await signIn(accountB)
    expect((await apiCall(sessionB, 'POST', path, { 'x-csrf-token': sessionB.csrf })).status).toBe(
      404,
    )
    expect((await eventsOf(world, accountA, chargeId)).map(({ type }) => type)).not.toContain(
      'instrument.authorized',
    )
    const paid = await apiCall(session, 'POST', path, { 'x-csrf-token': session.csrf })
    expect(paid.status).toBe(200)
    expect(await paid.json()).toMatchObject({ id: instrumentId, status: 'authorized' })
  })

  it('redelivers through the proxy and the retries log grows', async () => {
    const session = await signIn(accountA)
    const [event] = await eventsOf(world, accountA, flowA.chargeId, 'payment.success')
    const before = event?.retries_log.length ?? 0
    const response = await apiCall(session, 'POST', `/events/${event?.id}/redeliver`, {
      'x-csrf-token': session.csrf,
    })
    expect(response.status).toBe(200)
    const redelivered = (await response.json()) as { retries_log: unknown[]; result_status: number }
    expect(redelivered.retries_log).toHaveLength(before + 1)
    expect(redelivered.result_status).toBe(200)
  })
})

describe('sign-out', () => {
  it('needs the CSRF token, then ends the session and clears the cookie', async () => {
    const session = await signIn(accountA)
    const signOut = (fields: Record<string, string>) =>
      fetch(url('/dashboard/sign-out'), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      })
    expect((await signOut({})).status).toBe(403)
    expect((await apiCall(session, 'GET', '/events')).status).toBe(200)

    const response = await signOut({ csrf_token: session.csrf })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/dashboard')
    expect(response.headers.getSetCookie()[0]).toMatch(/^chargekit_dashboard_session=;.*Max-Age=0/i)
    expect((await apiCall(session, 'GET', '/events')).status).toBe(401)
    const page = await (
      await fetch(url('/dashboard'), { headers: { cookie: session.cookie } })
    ).text()
    expect(page).toContain('data-page="sign-in"')
  })
})

describe('assets', () => {
  it('serves the script and stylesheet immutable, compressed and revalidatable', async () => {
    const html = await (await fetch(url('/dashboard'))).text()
    const paths = [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map(
      (match) => match[1] as string,
    )
    expect(paths).toHaveLength(2)
    for (const path of paths) {
      const response = await fetch(url(path), { headers: { 'accept-encoding': 'gzip' } })
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('content-encoding')).toBe('gzip')
      const etag = response.headers.get('etag') ?? ''
      expect(etag).not.toBe('')
      await response.arrayBuffer()
      const again = await fetch(url(path), { headers: { 'if-none-match': etag } })
      expect(again.status).toBe(304)
    }
    expect((await fetch(url('/dashboard/assets/dashboard.nope.js'))).status).toBe(404)
  })
})

function basicToken(account: Account): string {
  return Buffer.from(`${account.id}:${account.key}`).toString('base64')
}
