import { type Context, Hono } from 'hono'
import { compress } from 'hono/compress'
import { trimTrailingSlash } from 'hono/trailing-slash'
import { apiProxyRoutes } from './api-proxy'
import { type DashboardOptions, resolveDashboardOptions } from './dashboard-options'
import { dataRoutes } from './data-routes'
import { loadPageAssets } from './page-assets'
import { renderAppPage, renderSignInPage } from './pages'
import { noStore, securityHeaders } from './security-headers'
import { createSessionCookie } from './session-cookie'
import { createSessionStore } from './session-store'
import { signInRoutes } from './sign-in'
import { signOutRoute } from './sign-out'
import { serveStaticAsset } from './static-assets'

/**
 * The sandbox dashboard: sign-in; the overview, charges, charge, events, event, deliveries and
 * requests views; a proxy that makes the page's API calls as the signed-in account; and the
 * dashboard's own reads of what the API does not answer (charge statuses, charts). Every route
 * lives under `/dashboard`, so the result mounts with `app.route('/', createDashboard({ api: (request) => app.fetch(request), data }))`.
 */
export function createDashboard(options: DashboardOptions): Hono {
  const { api, data, pollIntervalMs, sessionIdleTimeoutMs, maxSessions, throttle } =
    resolveDashboardOptions(options)
  const cookie = createSessionCookie(
    createSessionStore({ idleTimeoutMs: sessionIdleTimeoutMs, maxSessions }),
  )

  const app = new Hono().basePath('/dashboard')
  app.use(compress())
  // `/dashboard/` and `/dashboard/events/ev_…/` redirect to the canonical URL without the slash.
  app.use(trimTrailingSlash())
  app.use(securityHeaders())

  app.get('/assets/:file', async (c) => {
    const { script, styles } = await loadPageAssets()
    const asset = [script, styles].find(({ path }) => path === c.req.path)
    return asset === undefined ? c.notFound() : serveStaticAsset(asset, c.req.raw)
  })

  // One page shell for every view; the script renders the view the URL names.
  const page = async (c: Context) => {
    const assets = await loadPageAssets()
    const session = cookie.current(c)
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
  app.get('/overview', page)
  app.get('/charges', page)
  app.get('/charges/:id', page)
  app.get('/events/:id', page)
  app.get('/deliveries', page)
  app.get('/deliveries/endpoint', page)
  app.get('/requests', page)

  app.route('/', signInRoutes({ api, cookie, throttle }))
  app.route('/', signOutRoute(cookie))
  app.route('/', apiProxyRoutes({ api, cookie }))
  app.route('/', dataRoutes({ cookie, data }))
  return app
}
