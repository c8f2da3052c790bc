import type { MiddlewareHandler } from 'hono'
import { getPath } from 'hono/utils/url'
import { fieldLabel } from './integration-warnings'
import { requestWarnings } from './request-warnings'
import type { SandboxEnv } from './sandbox-env'

/**
 * The path the API routes on: a trailing slash names the same resource (`POST /v2/charges/` is
 * `POST /v2/charges`), on every route and method, as on the production service. No redirect:
 * clients do not repeat a POST body after a 301 or 302. Only under /v2; the dashboard keeps its
 * own canonical URLs.
 */
export function apiPath(request: Request): string {
  const path = getPath(request)
  return path.length > 4 && path.startsWith('/v2/') && path.endsWith('/') ? path.slice(0, -1) : path
}

/**
 * Records the trailing slash {@link apiPath} removed as an integration warning. hono's
 * trimTrailingSlash redirects instead, which would lose a POST's body.
 */
export function trailingSlashWarning(): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (c.req.path !== getPath(c.req.raw)) {
      // Printable ASCII only: the path is decoded, and a %0A must not become a new log line.
      const served = `${c.req.method} ${fieldLabel([c.req.path])}`
      requestWarnings(c).add({
        code: 'trailing_slash',
        message: `The path ends in "/": served as ${served}`,
        instead: served,
      })
    }
    await next()
  }
}
