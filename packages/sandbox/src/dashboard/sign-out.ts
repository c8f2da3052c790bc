import { Hono } from 'hono'
import { csrfTokensMatch, isSameOriginRequest } from './csrf-guard'
import { noStore } from './security-headers'
import type { SessionCookie } from './session-cookie'
import { formField } from './sign-in'

/**
 * `POST /sign-out` ends the session. It needs the page's CSRF token, so another site cannot
 * sign the merchant out; without a session it just clears the cookie.
 */
export function signOutRoute(cookie: SessionCookie): Hono {
  const routes = new Hono()
  routes.post('/sign-out', async (c) => {
    const session = cookie.current(c)
    if (session !== undefined) {
      const form = await c.req.parseBody()
      if (
        !isSameOriginRequest(c.req.raw) ||
        !csrfTokensMatch(formField(form.csrf_token), session.csrfToken)
      ) {
        return c.text('Sign out with the button on the dashboard page.', 403, noStore)
      }
    }
    cookie.end(c, session)
    return c.redirect('/dashboard', 303)
  })
  return routes
}
