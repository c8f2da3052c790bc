// A request's integration warnings, kept on hono's context and answered in a header.

import type { Context, MiddlewareHandler } from 'hono'
import {
  formatWarningsHeader,
  IntegrationWarnings,
  integrationWarningsHeader,
} from './integration-warnings'
import type { SandboxEnv } from './sandbox-env'

/** The warnings of the request `c` is about, created on first use. */
export function requestWarnings(c: Context<SandboxEnv>): IntegrationWarnings {
  let warnings = c.get('integrationWarnings')
  if (warnings === undefined) {
    warnings = new IntegrationWarnings()
    c.set('integrationWarnings', warnings)
  }
  return warnings
}

/** Adds the {@link integrationWarningsHeader} to every answer of a request that has warnings. */
export function integrationWarningsMiddleware(): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    await next()
    const warnings = c.get('integrationWarnings')
    if (warnings !== undefined && !warnings.isEmpty) {
      c.header(integrationWarningsHeader, formatWarningsHeader(warnings))
    }
  }
}
