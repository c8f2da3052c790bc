import type { MiddlewareHandler } from 'hono'
import { integrationWarningsHeader } from './integration-warnings'
import { requestHeader } from './request-header'
import type { SandboxEnv } from './sandbox-env'

const allowedMethods = 'GET, POST, DELETE'
/** What a browser may send: the headers the API reads, and the `x-*` headers of browser libraries. */
const allowedHeaders = new Set([
  'authorization',
  'content-type',
  'idempotency-key',
  'accept',
  'accept-language',
  'content-language',
])
/** The answer headers a page's script may read (beyond the ones every browser shows). */
const exposedHeaders = [
  'request-id',
  integrationWarningsHeader,
  'idempotent-replayed',
  'retry-after',
].join(', ')

/**
 * CORS on `/v2`, so a checkout page on the merchant's origin can call the API with the public
 * key. A preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 before any
 * authentication, since browsers send it without credentials. Every answer to an allowed origin
 * names that origin in `Access-Control-Allow-Origin` (never `*`, so the answer varies by Origin)
 * and exposes the request id. No cookies are involved: the browser sends the public key in the
 * Authorization header itself.
 *
 * `allowedOrigins` undefined allows any origin, as a local sandbox should; a list allows exactly
 * those origins (`https://shop.example`), and others get no CORS headers, which browsers refuse.
 *
 * Ours rather than hono's cors: that one cannot allow the `x-*` headers of browser libraries by
 * pattern, and it answers a refused origin's preflight with the allowed methods and headers.
 */
export function apiCors(
  allowedOrigins: readonly string[] | undefined,
): MiddlewareHandler<SandboxEnv> {
  const allows = (origin: string) => allowedOrigins === undefined || allowedOrigins.includes(origin)
  return async (c, next) => {
    const origin = requestHeader(c, 'origin')
    c.header('vary', 'Origin')
    const allowed = origin !== undefined && allows(origin)
    if (allowed) {
      c.header('access-control-allow-origin', origin)
      c.header('access-control-expose-headers', exposedHeaders)
    }
    const preflight =
      c.req.method === 'OPTIONS' && requestHeader(c, 'access-control-request-method') !== undefined
    if (!preflight) return next()
    if (allowed) {
      c.header('access-control-allow-methods', allowedMethods)
      c.header(
        'access-control-allow-headers',
        allowedHeadersOf(requestHeader(c, 'access-control-request-headers')),
      )
      c.header('access-control-max-age', '600')
      c.header('vary', 'Origin, Access-Control-Request-Headers')
    }
    return c.body(null, 204)
  }
}

/** The requested headers the API allows; a browser refuses the call if one it needs is left out. */
function allowedHeadersOf(requested: string | undefined): string {
  const names = (requested ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => allowedHeaders.has(name) || /^x-[a-z0-9-]+$/.test(name))
  return [...new Set([...allowedHeaders, ...names])].join(', ')
}
