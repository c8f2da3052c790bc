import { listQuerySchema } from '@chargekit/schemas'
import type { Hono } from 'hono'
import { endpoint, type HttpSettings } from '../endpoint'
import { listEnvelope, pageRequestOf } from '../list-envelope'
import type { RecentRequests } from '../recent-requests'
import type { SandboxEnv } from '../sandbox-env'
import { validateQuery } from '../validate'

/**
 * The account's recent API requests with their integration warnings, newest first: what the
 * dashboard's Requests view shows. A sandbox endpoint; the production service has no such list.
 */
export function requestRoutes(
  api: Hono<SandboxEnv>,
  settings: HttpSettings,
  log: RecentRequests,
): void {
  api.get(
    '/requests',
    endpoint(settings, async ({ c, step }) => {
      const query = validateQuery(listQuerySchema, c.req.query())
      return {
        status: 200,
        body: listEnvelope(log.list(step.account.id, pageRequestOf(query)), query, {}),
      }
    }),
  )
}
