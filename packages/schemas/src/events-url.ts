import * as z from 'zod'

export interface EventsUrlOptions {
  /**
   * Also accept plain `http:` to a loopback host (127.0.0.1, localhost, [::1]). The sandbox
   * needs this: a merchant's test server on the same machine rarely has a certificate.
   */
  allowLoopbackHttp: boolean
}

const loopbackHosts: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]'])

function isAcceptedEventsUrl(value: string, allowLoopbackHttp: boolean): boolean {
  if (!URL.canParse(value)) return false
  const url = new URL(value)
  if (url.protocol === 'https:') return url.hostname !== ''
  return allowLoopbackHttp && url.protocol === 'http:' && loopbackHosts.has(url.hostname)
}

/** Builds the `events_url` schema; see {@link EventsUrlOptions}. */
export function createEventsUrlSchema({ allowLoopbackHttp }: EventsUrlOptions) {
  const expected = allowLoopbackHttp
    ? 'Expected an https:// URL (or http:// to 127.0.0.1, localhost or [::1])'
    : 'Expected an https:// URL'
  return z.string().refine((value) => isAcceptedEventsUrl(value, allowLoopbackHttp), {
    error: expected,
  })
}

/** The address that receives a charge's events: https only, as the service requires. */
export const eventsUrlSchema = createEventsUrlSchema({ allowLoopbackHttp: false })
