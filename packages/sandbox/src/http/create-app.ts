import { Hono } from 'hono'
import type { RateLimitOptions } from '../accounts/account-options'
import type { Account } from '../accounts/accounts'
import { createDashboard } from '../dashboard/index'
import type { EventDelivery } from '../event-delivery'
import type { LifecycleDeps } from '../lifecycle/context'
import { basicAuth } from './basic-auth'
import type { HttpSettings } from './endpoint'
import { errorHandler, notFoundHandler } from './error-handler'
import { createIdempotencyCache } from './idempotency'
import { rateLimit } from './rate-limit'
import { requestIdMiddleware } from './request-id'
import { chargeRoutes } from './routes/charge-routes'
import { eventRoutes } from './routes/event-routes'
import { instrumentRoutes } from './routes/instrument-routes'
import { objectRoutes } from './routes/object-routes'
import { paymentRoutes } from './routes/payment-routes'
import { testHelperRoutes } from './routes/test-helper-routes'
import { threeDsRoutes } from './routes/three-ds-routes'
import type { SandboxEnv } from './sandbox-env'

export interface SandboxAppOptions {
  deps: LifecycleDeps
  accounts: readonly Account[]
  delivery: EventDelivery
  rateLimit: RateLimitOptions | false
  requestTimeoutMs: number
}

/** The sandbox's HTTP app: the API of DESIGN §4 under /v2 and the customer's 3DS page. */
export function createSandboxApp(options: SandboxAppOptions): Hono<SandboxEnv> {
  const { deps, accounts } = options
  const settings: HttpSettings = {
    deps,
    idempotency: createIdempotencyCache(),
    requestTimeoutMs: options.requestTimeoutMs,
  }
  const app = new Hono<SandboxEnv>()
  app.onError(errorHandler(deps.logger))
  app.notFound(notFoundHandler)
  app.use(requestIdMiddleware(deps.logger))

  // Registered before the auth middleware: the customer's page carries a token, not credentials.
  threeDsRoutes(app, deps, accounts)

  const api = new Hono<SandboxEnv>()
  api.use(basicAuth(accounts))
  api.use(rateLimit(options.rateLimit))
  chargeRoutes(api, settings)
  instrumentRoutes(api, settings)
  paymentRoutes(api, settings)
  objectRoutes(api, settings)
  eventRoutes(api, settings, options.delivery)
  testHelperRoutes(api, settings)
  app.route('/v2', api)
  app.route('/', createDashboard({ api: async (request) => app.fetch(request) }))
  return app
}
