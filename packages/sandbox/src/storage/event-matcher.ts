import type { EventFilter, StoredEvent } from './records'

/** Whether an event passes every filter that is set (all are ANDed; `types` is an OR list). */
export function matchesEventFilter(event: StoredEvent, filter: EventFilter): boolean {
  if (filter.types !== undefined && !filter.types.has(event.type)) return false
  if (filter.charge !== undefined && event.charge.id !== filter.charge) return false
  if (filter.objectId !== undefined && event.object_id !== filter.objectId) return false
  if (filter.createdGte !== undefined && event.created_at < filter.createdGte) return false
  if (filter.createdLte !== undefined && event.created_at > filter.createdLte) return false
  if (filter.dismissed !== undefined && (event.dismissed_at !== null) !== filter.dismissed) {
    return false
  }
  if (filter.resultStatus !== undefined && event.result_status !== filter.resultStatus) return false
  if (filter.deliveryStatus !== undefined && event.delivery_status !== filter.deliveryStatus) {
    return false
  }
  return filter.metadata === undefined || metadataMatches(event.charge.metadata, filter.metadata)
}

/**
 * Own keys only (`Object.hasOwn`): `metadata[constructor]=…` never matches a prototype member.
 * Metadata kept as a string has no keys, so it matches no `metadata[key]` filter (a string's own
 * keys would be its character positions).
 */
function metadataMatches(
  metadata: Readonly<Record<string, unknown>> | string,
  wanted: Readonly<Record<string, string>>,
): boolean {
  if (typeof metadata !== 'object') return false
  for (const key of Object.keys(wanted)) {
    if (!Object.hasOwn(metadata, key)) return false
    // Query values are text; metadata values are flat scalars, compared by their text form.
    if (String(metadata[key]) !== wanted[key]) return false
  }
  return true
}
