import type { Event } from '@chargekit/schemas'
import { type DeliveryRef, describeCause, WebhooksError } from './errors'
import type { WebhooksClient } from './types'

/**
 * The default authenticity check: fetch the claimed id with the merchant's own
 * credentials. Only the service can have created an event that this account can read, so an id
 * that is not found, or an event whose id or type differs from the claim, is a forgery.
 */
export async function fetchClaimedEvent(
  client: WebhooksClient,
  delivery: DeliveryRef,
): Promise<Event> {
  let event: Event
  try {
    event = await client.events.retrieve(delivery.id)
  } catch (cause) {
    throw fetchFailure(cause, delivery)
  }
  if (typeof event !== 'object' || event === null || event.id !== delivery.id) {
    throw new WebhooksError(
      'event_mismatch',
      `Fetching event "${delivery.id}" returned a different object; the delivery was rejected and no handler ran. Check that the client points at the service that sends these deliveries.`,
      { delivery },
    )
  }
  if (event.type !== delivery.type) {
    throw new WebhooksError(
      'event_mismatch',
      `The delivery claims event "${delivery.id}" is "${delivery.type}", but the service says it is "${event.type}": forged, so it was rejected and no handler ran.`,
      { delivery },
    )
  }
  return event
}

function fetchFailure(cause: unknown, delivery: DeliveryRef): WebhooksError {
  // Read structurally: this package never imports @chargekit/client (it takes any client object), whose
  // ApiError carries the HTTP `status`.
  const status = (cause as { status?: unknown } | null)?.status
  if (status === 404 || status === 410) {
    return new WebhooksError(
      'unknown_event',
      `The service knows no event "${delivery.id}" for this client's account: the delivery is forged (or the client uses another account's credentials), so it was rejected and no handler ran.`,
      { cause, delivery },
    )
  }
  if (status === 401 || status === 403) {
    return new WebhooksError(
      'event_fetch_failed',
      `The service refused the client's credentials (HTTP ${status}) while fetching event "${delivery.id}": fix the account id / private key given to the client. The delivery will be retried by the service.`,
      { cause, delivery },
    )
  }
  return new WebhooksError(
    'event_fetch_failed',
    `Could not fetch event "${delivery.id}" to verify the delivery (${describeCause(cause)}); answered non-2xx so the service retries it.`,
    { cause, delivery },
  )
}
