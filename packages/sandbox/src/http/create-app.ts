import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { RateLimitOptions } from '../accounts/account-options'
import type { Account } from '../accounts/accounts'
import type { SandboxClock } from '../clock'
import { createDashboard } from '../dashboard/create-dashboard'
import type { DeliveryAttemptLog, EventDelivery } from '../delivery/index'
import type { LifecycleDeps } from '../lifecycle/context'
import type { Readiness } from '../readiness'
import { payloadTooLarge } from './api-problem'
import { basicAuth } from './basic-auth'
import { contractRoutes } from './contract-routes'
import { apiCors } from './cors'
import type { CredentialThrottle } from './credential-throttle'
import type { HttpSettings } from './endpoint'
import { errorHandler, notFoundHandler } from './error-handler'
import { healthRoutes } from './health-routes'
import { createIdempotencyCache } from './idempotency'
import { registerApiOperations, registerOpenOperations } from './operation-routes'
import { rateLimit } from './rate-limit'
import { maxPageBodyBytes } from './read-body'
import { createRecentRequests, recordRecentRequests } from './recent-requests'
import { requestIdMiddleware } from './request-id'
import { integrationWarningsMiddleware } from './request-warnings'
import { chargeHandlers } from './routes/charge-routes'
import { eventHandlers } from './routes/event-routes'
import { instrumentHandlers } from './routes/instrument-routes'
import { objectHandlers } from './routes/object-routes'
import { paymentHandlers } from './routes/payment-routes'
import { requestHandlers } from './routes/request-routes'
import { testHelperHandlers } from './routes/test-helper-routes'
import { threeDsHandlers } from './routes/three-ds-routes'
import type { SandboxEnv } from './sandbox-env'
import { apiPath, trailingSlashWarning } from './trailing-slash'

export interface SandboxAppOptions {
  deps: LifecycleDeps
  accounts: readonly Account[]
  delivery: EventDelivery
  /** Every delivery attempt's status, failure and duration, for the dashboard's deliveries view. */
  deliveryAttempts: DeliveryAttemptLog
  rateLimit: RateLimitOptions | false
  requestTimeoutMs: number
  clock: SandboxClock
  /** Counts wrong credentials on the API and the dashboard sign-in alike. */
  throttle: CredentialThrottle
  /** The origin customers' browsers reach the sandbox at: 3-D Secure links start with it. */
  publicUrl: string
  /** Origins browsers may call /v2 from; undefined allows any. */
  corsOrigins: readonly string[] | undefined
  /** Whether a charge's `events_url` may be plain http to any host, not only to loopback. */
  allowHttpEventsUrl: boolean
  /** What `/readyz` answers. */
  readiness: Readiness
}

/** The sandbox's HTTP app: the API under /v2, the customer's 3DS page and the dashboard. */
export function createSandboxApp(options: SandboxAppOptions): Hono<SandboxEnv> {
  const { deps, accounts } = options
  const settings: HttpSettings = {
    deps,
    idempotency: createIdempotencyCache(deps.store),
    requestTimeoutMs: options.requestTimeoutMs,
    clock: options.clock,
    publicUrl: options.publicUrl,
    allowHttpEventsUrl: options.allowHttpEventsUrl,
  }
  const recentRequests = createRecentRequests()
  const app = new Hono<SandboxEnv>({ getPath: apiPath })
  app.onError(errorHandler(deps.logger))
  app.notFound(notFoundHandler)
  // Before the request log: probes every few seconds would drown it.
  healthRoutes(app, options.readiness)
  app.use(requestIdMiddleware(deps.logger))
  app.use(integrationWarningsMiddleware())
  app.use(trailingSlashWarning())
  // Before everything under /v2: browsers send preflights without credentials.
  app.use('/v2/*', apiCors(options.corsOrigins))
  // The API reads its bodies itself, up to 1 MB; every other route takes small forms at most.
  const pageBodyLimit = bodyLimit({
    maxSize: maxPageBodyBytes,
    onError: () => {
      throw payloadTooLarge(maxPageBodyBytes)
    },
  })
  app.use((c, next) => (/^\/v2(?:\/|$)/.test(c.req.path) ? next() : pageBodyLimit(c, next)))

  // Registered before the auth middleware: the customer reaches the 3-D Secure page by
  // navigation, and tools fetch the contract, with no credentials.
  registerOpenOperations(app, {
    ...threeDsHandlers(deps, accounts, options.publicUrl),
    ...contractRoutes(app, options.publicUrl),
  })

  const api = new Hono<SandboxEnv>()
  api.use(basicAuth(accounts, options.throttle))
  api.use(recordRecentRequests(recentRequests))
  api.use(rateLimit(options.rateLimit))
  registerApiOperations(api, settings, {
    ...chargeHandlers(settings),
    ...instrumentHandlers(settings),
    ...paymentHandlers(),
    ...objectHandlers(),
    ...eventHandlers(options.delivery),
    ...testHelperHandlers(settings),
    ...requestHandlers(recentRequests),
  })
  app.route('/v2', api)
  // Someone opening the sandbox's address in a browser wants the dashboard.
  app.get('/', (c) => c.redirect('/dashboard', 302))
  app.route(
    '/',
    createDashboard({
      api: async (request) => app.fetch(request, { fromDashboard: true }),
      data: { store: deps.store, deliveries: options.deliveryAttempts, now: deps.now },
      throttle: options.throttle,
    }),
  )
  return app
}
