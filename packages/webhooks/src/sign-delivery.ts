import {
  type CompactEventSource,
  deliveryUrl,
  type Event,
  toCompactEvent,
} from '@chargekit/schemas'
import { WebhooksError } from './errors'
import { decodeSecret, hmac, importKey } from './signature'

export interface SignDeliveryOptions {
  /** The event, in its full form (as `client.events.retrieve` returns it). */
  event: Event | CompactEventSource
  /** Your endpoint (the charge's `events_url`); the event's id and type are set on its query. */
  url: string
  /**
   * The Standard Webhooks secret your receiver is configured with. Without one the delivery is
   * unsigned, as the service sends it when no signing secret is set.
   */
  secret?: string
  /** When the delivery is sent, for `webhook-timestamp`. Default: now. */
  sentAt?: Date
}

/** A delivery as the service sends it: pass it to `fetch(delivery.url, delivery)` or `handleDelivery`. */
export interface SignedDelivery {
  method: 'POST'
  url: string
  headers: Record<string, string>
  body: string
}

/**
 * Builds the delivery the service would POST for `event`, byte for byte: the compact event as
 * the JSON body, `event` and `event_type` on the query, and, with a `secret`, the
 * `webhook-id`/`webhook-timestamp`/`webhook-signature` headers. For your own tests: drive your
 * receiver with real, correctly signed deliveries without running the service.
 */
export async function signDelivery(options: SignDeliveryOptions): Promise<SignedDelivery> {
  const { event, secret, sentAt = new Date() } = options
  const url = URL.canParse(options.url) ? new URL(options.url) : undefined
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new WebhooksError(
      'invalid_configuration',
      `url must be an absolute http(s) URL, such as https://shop.example/webhooks; got "${options.url}".`,
    )
  }
  if (event.charge == null) {
    throw new WebhooksError(
      'invalid_configuration',
      `event ${event.id} has no charge: every delivery names its charge, so pass the event as the service returns it.`,
    )
  }
  const body = JSON.stringify(toCompactEvent(event as CompactEventSource))
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (secret !== undefined) {
    const timestamp = String(Math.floor(sentAt.getTime() / 1000))
    const key = await importKey(decodeSecret(secret))
    const signature = btoa(String.fromCharCode(...(await hmac(key, event.id, timestamp, body))))
    headers['webhook-id'] = event.id
    headers['webhook-timestamp'] = timestamp
    headers['webhook-signature'] = `v1,${signature}`
  }
  return { method: 'POST', url: deliveryUrl(url, event).href, headers, body }
}
