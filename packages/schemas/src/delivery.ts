import * as z from 'zod/v4'

/**
 * The query parameters a delivery sets on the merchant's `events_url` to name its event, so a
 * receiver can tell which event came without reading the body.
 */
export const deliveryQueryParameters = { id: 'event', type: 'event_type' } as const

/**
 * The URL a delivery of `event` is POSTed to: `eventsUrl` with `event` and `event_type` set.
 * Set, not appended, so a stale value already in the merchant's URL cannot shadow the event's.
 */
export function deliveryUrl(eventsUrl: URL, event: { id: string; type: string }): URL {
  const url = new URL(eventsUrl)
  url.searchParams.set(deliveryQueryParameters.id, event.id)
  url.searchParams.set(deliveryQueryParameters.type, event.type)
  return url
}

/**
 * The id a delivery names: opaque (`ev_…`), 1 to 255 characters. The charset and the
 * alphanumeric start keep it one plain segment of the URL a receiver fetches the event at (no
 * `/`, and no `.` or `..` that a URL parser would resolve).
 */
export const deliveredEventIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}$/, {
  error:
    'Expected an event id: 1-255 letters, digits, "_", "-", "." or ":", starting with a letter or digit',
})

/** The type a delivery names: dotted words such as `payment.success`, at most 100 characters. */
export const deliveredEventTypeSchema = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/, {
    error: 'Expected an event type such as "payment.success"',
  })
