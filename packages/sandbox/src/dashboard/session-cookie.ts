import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { DashboardSession, SessionStore } from './session-store'

const cookieName = 'chargekit_dashboard_session'

/**
 * What ties a browser to its session: an HttpOnly, SameSite=Strict cookie scoped to /dashboard
 * that holds nothing but the session's random token.
 */
export interface SessionCookie {
  /** The live session the request's cookie names, if any. */
  current(c: Context): DashboardSession | undefined
  /** Starts a fresh session for the browser (ending any earlier one) and sets its cookie. */
  start(c: Context, accountId: string, authorization: string): void
  /** Ends the session and removes the cookie. */
  end(c: Context, session: DashboardSession | undefined): void
}

export function createSessionCookie(sessions: SessionStore): SessionCookie {
  const cookieOptions = (c: Context) => ({
    httpOnly: true,
    sameSite: 'Strict' as const,
    path: '/dashboard',
    secure: new URL(c.req.url).protocol === 'https:',
  })
  return {
    current: (c) => sessions.get(getCookie(c, cookieName)),
    start(c, accountId, authorization) {
      // A fresh token on every sign-in, so a token seen before signing in is worth nothing.
      sessions.delete(getCookie(c, cookieName))
      const session = sessions.create(accountId, authorization)
      setCookie(c, cookieName, session.token, cookieOptions(c))
    },
    end(c, session) {
      sessions.delete(session?.token)
      deleteCookie(c, cookieName, cookieOptions(c))
    },
  }
}
