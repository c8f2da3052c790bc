import type { MiddlewareHandler } from 'hono'

/**
 * Browser hardening for every page: a strict Content-Security-Policy (own scripts and styles
 * only; scripts may call the shop and the payment service, where the checkout script sends the
 * card; forms post to the shop only), no framing, no referrer leaking order ids to other sites.
 */
export function securityHeaders(serviceOrigin: string): MiddlewareHandler {
  const policy = [
    `default-src 'self'`,
    `script-src 'self'`,
    `style-src 'self'`,
    `img-src 'self' data:`,
    `connect-src 'self' ${serviceOrigin}`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
    `base-uri 'none'`,
  ].join('; ')
  return async (c, next) => {
    await next()
    c.header('Content-Security-Policy', policy)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'same-origin')
    c.header('X-Frame-Options', 'DENY')
  }
}

/**
 * Refuses cross-site form posts (CSRF): a browser always sends Origin on a POST, and it must be
 * this shop. The webhook endpoint is exempt — the service is not a browser, and the webhook
 * package authenticates each delivery by fetching the event with the shop's credentials.
 */
export function sameOriginPosts(exemptPaths: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'POST' || exemptPaths.includes(c.req.path)) return next()
    const origin = c.req.header('origin')
    if (origin !== undefined && origin !== new URL(c.req.url).origin) {
      return c.text('Cross-site form submissions are not accepted; use the shop page itself.', 403)
    }
    return next()
  }
}
