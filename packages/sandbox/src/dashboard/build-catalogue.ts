import { errorCategories, errorCodes } from '@chargekit/errors'
import { eventTypeList, eventTypes } from '@chargekit/schemas'
import type { DashboardCatalogue } from './browser/catalogue'

/**
 * The catalogues' entries the page shows: event types for the filter, and each error code's
 * designation for explaining failures on the charge timeline.
 */
export function buildCatalogue(): DashboardCatalogue {
  const categoryLabels = new Map(errorCategories.map((category) => [category.name, category.label]))
  return {
    eventTypes: eventTypeList.map((type) => ({
      type,
      label: eventTypes[type].label,
      family: eventTypes[type].family,
    })),
    errorCodes: Object.fromEntries(
      errorCodes.map((info) => [
        info.code,
        {
          designation: info.designation,
          aliases: info.aliases,
          description: info.description,
          category: categoryLabels.get(info.category) ?? info.category,
          retryable: info.retryable,
        },
      ]),
    ),
  }
}
