import type { DashboardClientData } from '../client-data'
import { chargeViewScript } from './charge-view-script'
import { coreScript } from './core-script'
import { eventViewScript } from './event-view-script'
import { eventsViewScript } from './events-view-script'
import { requestsViewScript } from './requests-view-script'
import { routerScript } from './router-script'
import { startScript } from './start-script'

/**
 * The dashboard's one browser script: plain JavaScript, no framework and no build step. It is
 * kept in parts, one per concern, that share the scope of a single module script; the catalogue
 * data comes first so the immutable, cached file carries it too.
 */
export function dashboardScript(data: DashboardClientData): string {
  return [
    `const catalogue = ${JSON.stringify(data)}`,
    coreScript,
    routerScript,
    eventsViewScript,
    eventViewScript,
    chargeViewScript,
    requestsViewScript,
    startScript,
  ].join('\n')
}
