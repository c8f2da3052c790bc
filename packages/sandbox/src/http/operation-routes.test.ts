import { operationTable } from '@chargekit/schemas/operations'
import { expect, it } from 'vitest'
import { systemClock } from '../clock'
import { createDeliveryAttemptLog, type EventDelivery } from '../delivery/index'
import type { LifecycleDeps } from '../lifecycle/context'
import { quietLogger } from '../logger'
import { createReadiness } from '../readiness'
import { createMemoryStore } from '../storage/memory-store'
import { createSandboxApp } from './create-app'
import { createCredentialThrottle } from './credential-throttle'
import { createEventStreams } from './event-streams'

// Every route the app serves under the API's root, against the operation table: a route
// without an entry, or an entry without a route, fails here. Only registration runs, so the
// lifecycle's dependencies are the few it reads while registering.
it('serves exactly the operations of the table under /v2, each once', () => {
  const app = createSandboxApp({
    deps: { store: createMemoryStore(), logger: quietLogger } as unknown as LifecycleDeps,
    accounts: [],
    delivery: {} as EventDelivery,
    deliveryAttempts: createDeliveryAttemptLog(),
    rateLimit: false,
    requestTimeoutMs: 1000,
    clock: systemClock,
    throttle: createCredentialThrottle([]),
    publicUrl: 'http://127.0.0.1:4010',
    corsOrigins: undefined,
    allowHttpEventsUrl: false,
    readiness: createReadiness(quietLogger),
    streams: createEventStreams({ store: createMemoryStore(), logger: quietLogger }),
  })
  const served = app.routes
    .filter((route) => route.method !== 'ALL' && /^\/v2(?:\/|$)/.test(route.path))
    .map((route) => `${route.method} ${route.path}`)
  const declared = operationTable.map(
    (operation) => `${operation.method} ${operation.path.replace(/\{(\w+)\}/g, ':$1')}`,
  )
  expect(served.toSorted()).toEqual(declared.toSorted())
  expect(new Set(declared).size).toBe(declared.length)
})
