import type { HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { type CredentialThrottle, clientAddress } from '../http/credential-throttle'
import type { ApiFetch } from './api-proxy'
import { isSameOriginRequest } from './csrf-guard'
import { loadPageAssets } from './page-assets'
import { renderSignInPage } from './pages'
import { safeNextPath } from './safe-next-path'
import { noStore } from './security-headers'
import type { SessionCookie } from './session-cookie'
import { verifyCredentials } from './verify-credentials'

/**
 * Signing in: `POST /session` checks an account id and key against the API and starts a
 * session; `GET /session` tells the sign-in page whether the browser is signed in after all.
 * Refused pairs count against the browser's address (with the account tried): past the
 * throttle's limit, sign-in from there answers 429 with `Retry-After` without checking the pair.
 */
export function signInRoutes(deps: {
  api: ApiFetch
  cookie: SessionCookie
  throttle: CredentialThrottle
}): Hono {
  const { api, cookie, throttle } = deps
  const routes = new Hono()

  // Lets a sign-in page opened from another site (where the Strict cookie was held back) find
  // out that the browser is in fact signed in.
  routes.get('/session', (c) => {
    const session = cookie.current(c)
    return session === undefined
      ? c.json({ message: 'Not signed in; sign in at /dashboard.' }, 401, noStore)
      : c.json({ account_id: session.accountId }, 200, noStore)
  })

  routes.post('/session', async (c) => {
    if (!isSameOriginRequest(c.req.raw)) {
      return c.text('Sign in from the dashboard page itself: /dashboard', 403, noStore)
    }
    const form = await c.req.parseBody()
    const accountId = formField(form.account_id).trim()
    const key = formField(form.key)
    const next = safeNextPath(formField(form.next), c.req.url)
    const refuse = async (status: 400 | 401 | 429 | 502, error: string, headers = {}) =>
      c.html(renderSignInPage({ assets: await loadPageAssets(), next, accountId, error }), status, {
        ...noStore,
        ...headers,
      })

    if (accountId === '' || key === '') {
      return refuse(400, 'Enter both the account id and the private key.')
    }
    if (accountId.includes(':')) {
      return refuse(400, 'An account id cannot contain ":". Enter the id and the key separately.')
    }
    // The dashboard is mounted in the sandbox's app: node's bindings, absent in-process.
    const address = clientAddress(c.env as Partial<HttpBindings> | undefined)
    const retryAfter = throttle.retryAfter(address, accountId)
    if (retryAfter !== undefined) {
      return refuse(
        429,
        `Too many refused sign-ins from this address: try again in ${retryAfter} s.`,
        { 'retry-after': String(retryAfter) },
      )
    }
    const check = await verifyCredentials(api, new URL(c.req.url).origin, accountId, key)
    if (check.outcome === 'refused') {
      throttle.recordFailure(address, accountId)
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
    cookie.start(c, accountId, check.authorization)
    return c.redirect(next, 303)
  })

  return routes
}

/** A text field of a parsed form body: '' when it is missing or a file. */
export function formField(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
