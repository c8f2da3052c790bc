import { boundedText, requestTextLimits } from './request-text'

export interface EventsUrlOptions {
  /**
   * Also accept plain `http:` to a loopback host (127.0.0.1, localhost, [::1]). The sandbox
   * needs this: a merchant's test server on the same machine rarely has a certificate.
   */
  allowLoopbackHttp: boolean
  /**
   * Also accept plain `http:` to any host: receivers on a private network (a docker-compose
   * service name, a LAN address) that have no certificate. Only for emulators; default false.
   */
  allowAnyHttp?: boolean
}

const loopbackHosts: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]'])

function isAcceptedEventsUrl(value: string, options: EventsUrlOptions): boolean {
  if (!URL.canParse(value)) return false
  const url = new URL(value)
  if (url.hostname === '') return false
  if (url.protocol === 'https:') return true
  if (url.protocol !== 'http:') return false
  return (
    options.allowAnyHttp === true || (options.allowLoopbackHttp && loopbackHosts.has(url.hostname))
  )
}

/** Builds the `events_url` schema; see {@link EventsUrlOptions}. */
export function createEventsUrlSchema(options: EventsUrlOptions) {
  const expected = options.allowAnyHttp
    ? 'Expected an http:// or https:// URL'
    : options.allowLoopbackHttp
      ? 'Expected an https:// URL (or http:// to 127.0.0.1, localhost or [::1])'
      : 'Expected an https:// URL'
  return boundedText(requestTextLimits.url).refine((value) => isAcceptedEventsUrl(value, options), {
    error: expected,
  })
}

/** The address that receives a charge's events: https only, as the service requires. */
export const eventsUrlSchema = createEventsUrlSchema({ allowLoopbackHttp: false })
