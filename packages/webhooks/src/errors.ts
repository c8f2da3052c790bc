import { ChargekitError } from '@chargekit/errors'
import type { CompactEvent } from '@chargekit/schemas'

/**
 * Why a delivery was not processed (or a configuration was refused). Each code maps to one HTTP
 * status in `handleRequest`/`createNodeMiddleware`, so senders can tell "fix it" (4xx) from
 * "try again later" (409/5xx), and the service's retry schedule does the rest.
 */
export type WebhooksErrorCode =
  /** 400: the body and query carried no usable `{ id, type }`. */
  | 'invalid_delivery'
  /** 405: only POST deliveries are accepted. */
  | 'method_not_allowed'
  /** 413: the body is far larger than any delivery. */
  | 'payload_too_large'
  /** 401: a `secret` is configured and the Standard Webhooks signature is missing or wrong. */
  | 'invalid_signature'
  /** 401: fetching the claimed id with the merchant's credentials found no event. */
  | 'unknown_event'
  /** 401: the fetched event's id or type differs from the claimed one. */
  | 'event_mismatch'
  /** 502: the event could not be fetched (network, service error, refused credentials). */
  | 'event_fetch_failed'
  /** 503: the delivery store could not be reached to claim the event. */
  | 'store_failed'
  /** 409: the same event is being handled right now by another delivery. */
  | 'in_flight'
  /** 500: a handler threw or rejected; the claim was released so a retry runs it again. */
  | 'handler_failed'
  /** 503: the handlers did not finish within `handlerTimeoutMs`. */
  | 'handler_timeout'
  /** 500: a failure inside this library (a bug: please report it with the cause). */
  | 'internal_error'
  /** Thrown synchronously by `createWebhooks`/`on` for a bad option or event type name. */
  | 'invalid_configuration'

const statusByCode: Record<WebhooksErrorCode, number> = {
  invalid_delivery: 400,
  method_not_allowed: 405,
  payload_too_large: 413,
  invalid_signature: 401,
  unknown_event: 401,
  event_mismatch: 401,
  event_fetch_failed: 502,
  store_failed: 503,
  in_flight: 409,
  handler_failed: 500,
  handler_timeout: 503,
  internal_error: 500,
  invalid_configuration: 500,
}

/** The claimed id and type of a delivery, as far as they were read before the failure. */
export interface DeliveryRef {
  id: string
  type: string
  /**
   * The event's compact form, when the delivery's JSON body is one (the service's always is).
   * As sent, not verified: only the event fetched from the service is.
   */
  compact?: CompactEvent | undefined
}

export interface WebhooksErrorOptions {
  cause?: unknown
  delivery?: DeliveryRef | undefined
}

/** The one error class of @chargekit/webhooks; `code` says what went wrong, `status` the answer. */
export class WebhooksError extends ChargekitError {
  override readonly name = 'WebhooksError'
  readonly code: WebhooksErrorCode
  /** The HTTP status the adapters answer with for this error. */
  readonly status: number
  /** The delivery being processed, when its id and type had been read. */
  readonly delivery: DeliveryRef | undefined

  constructor(code: WebhooksErrorCode, message: string, options: WebhooksErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.status = statusByCode[code]
    this.delivery = options.delivery
  }

  /** Whether the sender should try the same delivery again later (the answer is 409 or 5xx). */
  get retryable(): boolean {
    return this.status === 409 || this.status >= 500
  }
}

/** Anything thrown while receiving, as a `WebhooksError`: one not made here is a bug (500). */
export function asWebhooksError(error: unknown, delivery: DeliveryRef | undefined): WebhooksError {
  if (error instanceof WebhooksError) return error
  return new WebhooksError(
    'internal_error',
    `Unexpected failure while receiving a delivery: ${describeCause(error)}. Please report it with the cause; the service will retry the delivery.`,
    { cause: error, delivery },
  )
}

/** A thrown value's message, for error texts that name their cause. */
export function describeCause(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
