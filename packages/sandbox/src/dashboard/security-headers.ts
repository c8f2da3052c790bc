import type { MiddlewareHandler } from 'hono'

/** Answers that depend on the session (pages, sign-in, API relays) are never cached. */
export const noStore = { 'cache-control': 'no-store' } as const

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
 * The browser protections on every dashboard answer: a Content Security Policy that allows only
 * the dashboard's own files, no MIME sniffing, no framing (against clickjacking of the redeliver
 * and dismiss buttons), and no full URL sent to other sites.
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next()
    c.header('content-security-policy', contentSecurityPolicy)
    c.header('x-content-type-options', 'nosniff')
    c.header('x-frame-options', 'DENY')
    c.header('referrer-policy', 'same-origin')
  }
}
