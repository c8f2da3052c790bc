import { deliveryQueryParameters } from '@chargekit/schemas'
import type { DeliveryJob } from './types'

export interface DeliveryRequest {
  /** Scheme, host and port of the receiver: attempts to one origin share its lane. */
  origin: string
  /** Path and query. */
  path: string
  body: string
  /** The headers of an unsigned attempt, shared by every attempt to the receiver: read only. */
  headers: Readonly<Record<string, string>>
}

/** What every delivery to one events_url shares, parsed once for all of them. */
interface Receiver {
  origin: string
  pathname: string
  /** The merchant's own query parameters. */
  query: URLSearchParams
  /**
   * Those parameters as `URLSearchParams` writes them, ending with `&` when there are some;
   * undefined when they hold an `event` or `event_type` of their own, which the event's replace.
   */
  plainQuery: string | undefined
  /** The headers of every attempt (the transport adds the body's length). */
  headers: Readonly<Record<string, string>>
  logged: string
}

/**
 * Receivers by events_url: charges of one integration share a URL, so parsing it once serves
 * every delivery to it. Bounded, so a test run creating a URL per charge cannot grow it.
 */
const receivers = new Map<string, Receiver | null>()
const maxReceivers = 1_000

/**
 * The delivery POST: the job's JSON body (the event's compact form), to the events URL with the
 * event's id and type as the query parameters `event` and `event_type` that integrations
 * written for the production service read (set, not appended: a stale value in the merchant's
 * URL cannot shadow the event's).
 * Undefined for a URL that cannot be requested over HTTP(S): its attempts fail with status 0.
 */
export function buildDeliveryRequest(job: DeliveryJob): DeliveryRequest | undefined {
  const receiver = receiverAt(job.eventsUrl)
  if (receiver === undefined) return undefined
  return {
    origin: receiver.origin,
    path: `${receiver.pathname}?${deliveryQuery(receiver, job)}`,
    body: job.body,
    headers: receiver.headers,
  }
}

/**
 * The query of one delivery. A URL without `event` and `event_type` of its own (the common
 * case) only has them appended, as `URLSearchParams` would write them.
 */
function deliveryQuery(receiver: Receiver, { eventId, eventType }: DeliveryJob): string {
  const { id, type } = deliveryQueryParameters
  if (receiver.plainQuery !== undefined && plainValue.test(eventId) && plainValue.test(eventType)) {
    return `${receiver.plainQuery}${id}=${eventId}&${type}=${eventType}`
  }
  const query = new URLSearchParams(receiver.query)
  query.set(id, eventId)
  query.set(type, eventType)
  return query.toString()
}

/** Characters `URLSearchParams` writes as they are. */
const plainValue = /^[A-Za-z0-9_.*-]*$/

/**
 * Which receiver an events_url is, for grouping its deliveries: its origin, or the URL itself
 * when it cannot be requested.
 */
export function receiverOf(eventsUrl: string): string {
  return receiverAt(eventsUrl)?.origin ?? eventsUrl
}

/** An events_url for a log line: without its query, where merchants put tokens. */
export function loggedEventsUrl(eventsUrl: string): string {
  return receiverAt(eventsUrl)?.logged ?? JSON.stringify(eventsUrl)
}

function receiverAt(eventsUrl: string): Receiver | undefined {
  let receiver = receivers.get(eventsUrl)
  if (receiver === undefined) {
    receiver = parseReceiver(eventsUrl)
    if (receivers.size >= maxReceivers) receivers.clear()
    receivers.set(eventsUrl, receiver)
  }
  return receiver ?? undefined
}

function parseReceiver(eventsUrl: string): Receiver | null {
  if (!URL.canParse(eventsUrl)) return null
  const url = new URL(eventsUrl)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  const { id, type } = deliveryQueryParameters
  const written = url.searchParams.toString()
  return {
    origin: url.origin,
    pathname: url.pathname,
    query: url.searchParams,
    plainQuery:
      url.searchParams.has(id) || url.searchParams.has(type)
        ? undefined
        : written === ''
          ? ''
          : `${written}&`,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'chargekit-sandbox',
      // Credentials in the URL (https://user:secret@shop.example/hooks) go as Basic auth, as
      // curl and node:http send them; the origin leaves them out.
      ...(url.username === '' && url.password === ''
        ? {}
        : { authorization: basicAuthorization(url) }),
    },
    logged: `${url.protocol}//${url.host}${url.pathname}${url.search === '' ? '' : '?…'}`,
  }
}

function basicAuthorization(url: URL): string {
  const credentials = `${decoded(url.username)}:${decoded(url.password)}`
  return `Basic ${Buffer.from(credentials).toString('base64')}`
}

/** Percent-decoded, or as written where a `%` starts no valid escape (`%zz`): never a throw. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}
