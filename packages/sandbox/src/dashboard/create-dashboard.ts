import { type Context, Hono } from 'hono'
import { compress } from 'hono/compress'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { trimTrailingSlash } from 'hono/trailing-slash'
import { forwardApiCall, isAllowedApiCall } from './api-proxy'
import { dashboardScript } from './client/dashboard-script'
import { dashboardStyles } from './client/dashboard-styles'
import { buildClientData } from './client-data'
import { csrfTokensMatch, isSameOriginRequest } from './csrf-guard'
import { type DashboardOptions, resolveDashboardOptions } from './dashboard-options'
import { type PageAssets, renderAppPage, renderSignInPage } from './pages'
import { safeNextPath } from './safe-next-path'
import { createSessionStore, type DashboardSession } from './session-store'
import { createStaticAsset, serveStaticAsset } from './static-assets'
import { verifyCredentials } from './verify-credentials'

const sessionCookie = 'chargekit_dashboard_session'
const noStore = { 'cache-control': 'no-store' }

// The page loads nothing but its own script, stylesheet and same-origin API calls.
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ')

/**
 * The sandbox dashboard: sign-in, the events, event and charge views, and a proxy that makes the
 * page's API calls as the signed-in account. Every route lives under `/dashboard`, so the result
 * mounts with `app.route('/', createDashboard({ api: (request) => app.fetch(request) }))`.
 */
export function createDashboard(options: DashboardOptions): Hono {
  const { api, pollIntervalMs, sessionIdleTimeoutMs, maxSessions } =
    resolveDashboardOptions(options)
  const sessions = createSessionStore({ idleTimeoutMs: sessionIdleTimeoutMs, maxSessions })
  const assets: PageAssets = {
    script: createStaticAsset('dashboard', 'js', dashboardScript(buildClientData())),
    styles: createStaticAsset('dashboard', 'css', dashboardStyles),
  }
  const assetsByPath = new Map([assets.script, assets.styles].map((asset) => [asset.path, asset]))

  const currentSession = (c: Context) => sessions.get(getCookie(c, sessionCookie))
  const cookieOptions = (c: Context) => ({
    httpOnly: true,
    sameSite: 'Strict' as const,
    path: '/dashboard',
    secure: new URL(c.req.url).protocol === 'https:',
  })
  const endSession = (c: Context, session: DashboardSession | undefined) => {
    sessions.delete(session?.token)
    deleteCookie(c, sessionCookie, cookieOptions(c))
  }

  const app = new Hono().basePath('/dashboard')
  app.use(compress())
  // `/dashboard/` and `/dashboard/events/ev_…/` redirect to the canonical URL without the slash.
  app.use(trimTrailingSlash())
  app.use(async (c, next) => {
    await next()
    c.header('content-security-policy', contentSecurityPolicy)
    c.header('x-content-type-options', 'nosniff')
    c.header('x-frame-options', 'DENY')
    c.header('referrer-policy', 'same-origin')
  })

  app.get('/assets/:file', (c) => {
    const asset = assetsByPath.get(c.req.path)
    return asset === undefined ? c.notFound() : serveStaticAsset(asset, c.req.raw)
  })

  // One page shell for every view; the script renders the view the URL names.
  const page = (c: Context) => {
    const session = currentSession(c)
    const url = new URL(c.req.url)
    const html =
      session === undefined
        ? renderSignInPage({ assets, next: url.pathname + url.search })
        : renderAppPage({
            assets,
            accountId: session.accountId,
            csrfToken: session.csrfToken,
            pollIntervalMs,
          })
    return c.html(html, 200, noStore)
  }
  app.get('/', page)
  app.get('/events/:id', page)
  app.get('/charges/:id', page)

  // Lets a sign-in page opened from another site (where the Strict cookie was held back) find
  // out that the browser is in fact signed in.
  app.get('/session', (c) => {
    const session = currentSession(c)
    return session === undefined
      ? c.json({ message: 'Not signed in; sign in at /dashboard.' }, 401, noStore)
      : c.json({ account_id: session.accountId }, 200, noStore)
  })

  app.post('/session', async (c) => {
    if (!isSameOriginRequest(c.req.raw)) {
      return c.text('Sign in from the dashboard page itself: /dashboard', 403, noStore)
    }
    const form = await c.req.parseBody()
    const accountId = formField(form.account_id).trim()
    const key = formField(form.key)
    const next = safeNextPath(formField(form.next), c.req.url)
    const refuse = (status: 400 | 401 | 502, error: string) =>
      c.html(renderSignInPage({ assets, next, accountId, error }), status, noStore)

    if (accountId === '' || key === '') {
      return refuse(400, 'Enter both the account id and the private key.')
    }
    if (accountId.includes(':')) {
      return refuse(400, 'An account id cannot contain ":". Enter the id and the key separately.')
    }
    const check = await verifyCredentials(api, new URL(c.req.url).origin, accountId, key)
    if (check.outcome === 'refused') {
      return refuse(
        401,
        'That account id and private key were refused. Use a pair the sandbox was started with (it prints them at start).',
      )
    }
    if (check.outcome === 'unavailable') {
      return refuse(
        502,
        `The sandbox API answered HTTP ${check.status} while checking the credentials; try again.`,
      )
    }
    // A fresh token on every sign-in; the new cookie replaces any earlier one.
    sessions.delete(getCookie(c, sessionCookie))
    const session = sessions.create(accountId, check.authorization)
    setCookie(c, sessionCookie, session.token, cookieOptions(c))
    return c.redirect(next, 303)
  })

  app.post('/sign-out', async (c) => {
    const session = currentSession(c)
    if (session !== undefined) {
      const form = await c.req.parseBody()
      if (
        !isSameOriginRequest(c.req.raw) ||
        !csrfTokensMatch(formField(form.csrf_token), session.csrfToken)
      ) {
        return c.text('Sign out with the button on the dashboard page.', 403, noStore)
      }
    }
    endSession(c, session)
    return c.redirect('/dashboard', 303)
  })

  app.all('/api/*', async (c) => {
    const session = currentSession(c)
    if (session === undefined) {
      return c.json({ message: 'Not signed in; sign in again at /dashboard.' }, 401, noStore)
    }
    const path = new URL(c.req.url).pathname.slice('/dashboard/api'.length)
    if (!isAllowedApiCall(c.req.method, path)) {
      return c.json(
        {
          message: `The dashboard does not offer ${c.req.method} ${path}; call the API at /v2 with your credentials instead.`,
        },
        404,
        noStore,
      )
    }
    if (
      c.req.method !== 'GET' &&
      (!isSameOriginRequest(c.req.raw) ||
        !csrfTokensMatch(c.req.header('x-csrf-token'), session.csrfToken))
    ) {
      return c.json(
        { message: 'Missing or wrong X-CSRF-Token header; reload the dashboard and try again.' },
        403,
        noStore,
      )
    }
    const answer = await forwardApiCall(api, c.req.raw, path, session.authorization)
    if (answer.status === 401) {
      await answer.body?.cancel()
      endSession(c, session)
      return c.json(
        { message: 'The sandbox no longer accepts this account; sign in again at /dashboard.' },
        401,
        noStore,
      )
    }
    return answer
  })

  return app
}

function formField(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
