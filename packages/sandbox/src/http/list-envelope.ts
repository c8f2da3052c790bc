import type { ListQuery } from '@chargekit/schemas'
import type { PageRequest, PageResult } from '../storage/records'

export function pageRequestOf(query: ListQuery): PageRequest {
  return { offset: (query.page - 1) * query.per_page, limit: query.per_page }
}

/** The list envelope: the page's items newest first, pagination, and the filters applied. */
export function listEnvelope<T>(page: PageResult<T>, query: ListQuery, filters: object) {
  return {
    collection: page.items,
    pagination: { page: query.page, per_page: query.per_page, total: page.total },
    filters,
  }
}

/** Drops undefined entries, so `filters` lists only what was actually applied. */
export function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))
}
