import { errorCategories, errorCodes } from '@chargekit/errors'
import { eventTypeList, eventTypes } from '@chargekit/schemas'

/**
 * What the page needs from the catalogues, shipped inside the (immutable, cached) script so the
 * browser never fetches it separately: event types for the filter, and each error code's
 * designation for explaining failures on the charge timeline.
 */
export interface DashboardClientData {
  eventTypes: { type: string; label: string; family: string }[]
  errorCodes: Record<
    string,
    {
      designation: string
      aliases: readonly string[]
      description: string
      category: string
      retryable: boolean
    }
  >
}

export function buildClientData(): DashboardClientData {
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
