import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { LifecycleError } from '../lifecycle/lifecycle-error'
import type { SandboxLogger } from '../logger'
import { ApiProblem, internalError, problemOf } from './api-problem'
import type { SandboxEnv } from './sandbox-env'

/** Renders an {@link ApiProblem} as its JSON error body, status and headers. */
function problemResponse(c: Context<SandboxEnv>, problem: ApiProblem): Response {
  return c.json(problem.body, problem.status as 400, problem.headers)
}

/**
 * Expected failures (an ApiProblem, or a lifecycle step's refusal) become their documented
 * status and body ([errors](../../../../docs/service/errors.md)); anything else is a bug: logged
 * with its stack under the request id, answered 500 99.01.0000 without internals.
 */
export function errorHandler(logger: SandboxLogger): ErrorHandler<SandboxEnv> {
  return (error, c) => {
    if (error instanceof ApiProblem) return problemResponse(c, error)
    if (error instanceof LifecycleError) return problemResponse(c, problemOf(error))
    logger.error('unexpected error', { request_id: c.get('requestId'), error })
    return problemResponse(c, internalError())
  }
}

export const notFoundHandler: NotFoundHandler<SandboxEnv> = (c) =>
  c.json(
    {
      message: `No endpoint ${c.req.method} ${c.req.path}: see the API reference in the @chargekit/sandbox README`,
    },
    404,
  )
