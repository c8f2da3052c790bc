import { type Env, Hono } from 'hono'
import type { Readiness } from '../readiness'

/**
 * `GET /healthz` (the process serves) and `GET /readyz` (it takes work: 503 with the reason
 * while starting, stopping or when the store does not answer), for container healthchecks,
 * orchestrators and load balancers. Neither needs credentials nor reads a request body; the
 * store is asked at most once a second however often they are called.
 */
export function healthRoutes<E extends Env>(app: Hono<E>, readiness: Readiness): void {
  const noStore = { 'cache-control': 'no-store' }
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, noStore))
  app.get('/readyz', async (c) => {
    const report = await readiness.check()
    if (report.ready) return c.json({ status: 'ready' }, 200, noStore)
    return c.json({ status: report.status, reason: report.reason }, 503, {
      ...noStore,
      'retry-after': '1',
    })
  })
}

/**
 * What answers while the store opens: the health routes, and 503 with `Retry-After` for
 * everything else, so a client that connects early is told to come back.
 */
export function createStartingApp(readiness: Readiness): Hono {
  const app = new Hono()
  healthRoutes(app, readiness)
  app.all('*', async (c) => {
    const report = await readiness.check()
    const reason = report.ready ? 'starting' : report.reason
    return c.json(
      { message: `The sandbox is not ready yet (${reason}); retry in a moment.` },
      503,
      {
        'retry-after': '1',
      },
    )
  })
  return app
}
