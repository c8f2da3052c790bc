import { listEnvelope, pageRequestOf } from '../list-envelope'
import type { ApiHandlers } from '../operation-routes'
import type { RecentRequests } from '../recent-requests'

/**
 * The account's recent API requests with their integration warnings, newest first: what the
 * dashboard's Requests view shows. A sandbox endpoint; the production service has no such list.
 */
export function requestHandlers(
  log: RecentRequests,
): Pick<ApiHandlers, 'testHelpers.listRequests'> {
  return {
    'testHelpers.listRequests': async ({ query, step }) =>
      listEnvelope(log.list(step.account.id, pageRequestOf(query)), query, {}),
  }
}
