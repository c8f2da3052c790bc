import type { RequestOptions } from 'node:http'
import { urlToHttpOptions } from 'node:url'
import { deliveryUrl } from '@chargekit/schemas'
import type { DeliveryJob } from './types'

export interface DeliveryRequest {
  /** Scheme, host and port of the receiver: attempts to one origin share its lane. */
  origin: string
  secure: boolean
  /** node:http options for the URL, parsed once and reused by every attempt of the event. */
  target: RequestOptions
  body: string
  /** The headers of an unsigned attempt; built once, since node:http only reads them. */
  headers: Readonly<Record<string, string>>
}

/**
 * The delivery POST: the job's JSON body (the event's compact form), to the events URL with the
 * event's id and type as the query parameters `event` and `event_type` that integrations
 * written for the production service read.
 * Undefined for a URL that cannot be requested over HTTP(S): its attempts fail with status 0.
 */
export function buildDeliveryRequest(job: DeliveryJob): DeliveryRequest | undefined {
  if (!URL.canParse(job.eventsUrl)) return undefined
  const eventsUrl = new URL(job.eventsUrl)
  if (eventsUrl.protocol !== 'http:' && eventsUrl.protocol !== 'https:') return undefined
  const url = deliveryUrl(eventsUrl, { id: job.eventId, type: job.eventType })
  const { protocol, hostname, port, path, auth } = urlToHttpOptions(url)
  const { body } = job
  return {
    origin: url.origin,
    secure: url.protocol === 'https:',
    target: { protocol, hostname, port, path, ...(auth === undefined ? {} : { auth }) },
    body,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'chargekit-sandbox',
    },
  }
}
