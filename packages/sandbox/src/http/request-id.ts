import type { MiddlewareHandler } from 'hono'
import { newId } from '../ids'
import type { SandboxLogger } from '../logger'
import { formatWarningsForLog } from './integration-warnings'
import type { SandboxEnv } from './sandbox-env'

/**
 * Gives every answer a `Request-Id` header (errors included) and logs one line per request:
 * method, path without the query (3DS tokens and filters stay out of logs), status, duration,
 * account, and the request's integration warnings if any. Never headers or bodies, so never
 * credentials or card data.
 *
 * Ours rather than hono's requestId, which adopts an id the client sends: a 500 points to the log
 * line by its id, so every id is the sandbox's own, and one middleware also writes that line.
 */
export function requestIdMiddleware(logger: SandboxLogger): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const requestId = newId('req')
    const started = performance.now()
    c.set('requestId', requestId)
    // Set before the answer exists, so Hono adds it to whatever answer is built (errors too)
    // without turning node-server's lightweight response into a full one.
    c.header('request-id', requestId)
    await next()
    const warnings = c.get('integrationWarnings')
    const { method, path } = c.req
    const { status } = c.res
    logger.info(`${method} ${path} ${status}`, {
      method,
      path,
      status,
      duration_ms: Math.round(performance.now() - started),
      account: c.get('account')?.id ?? null,
      request_id: requestId,
      ...(warnings === undefined || warnings.isEmpty
        ? {}
        : { warnings: formatWarningsForLog(warnings) }),
    })
  }
}
