import type { CompactEvent, Event } from '@chargekit/schemas'
import type { DeliveryStore } from './delivery-store'
import type { WebhooksError } from './errors'
import type { HeaderSource } from './headers'
import type { WebhookSecret } from './signature'

/**
 * The part of a client the receiver uses: `events.retrieve` with the merchant's own credentials.
 * `createClient` from @chargekit/client fits; so does any object of this shape.
 */
export interface WebhooksClient {
  events: { retrieve(id: string): Promise<Event> }
}

/** Passed to every handler beside the event. */
export interface HandlerContext {
  /** Aborted when the handlers overrun `handlerTimeoutMs`: stop work that can still be stopped. */
  signal: AbortSignal
  /**
   * The compact form the delivery carried as its body, as sent (undefined when the body was not
   * one, e.g. only query parameters). Not verified: rely on the event argument, which was
   * fetched from the service; this shows what the service delivered.
   */
  compact: CompactEvent | undefined
}

export type EventHandler<E = Event> = (
  event: E,
  context: HandlerContext,
) => unknown | Promise<unknown>

/** Told about every delivery that was not acknowledged, except an `in_flight` duplicate. */
export type ErrorHandler = (error: WebhooksError) => unknown | Promise<unknown>

export interface WebhooksOptions {
  /** Fetches each claimed event: the check that a delivery is genuine. */
  client: WebhooksClient
  /**
   * Remembers handled events. Default: `createMemoryDeliveryStore()`, this process only, with a
   * warning; `createSqlDeliveryStore` keeps them in your database, across restarts and processes.
   */
  store?: DeliveryStore
  /** Standard Webhooks signing secret(s); when set, unsigned or badly signed deliveries get 401. */
  secret?: WebhookSecret
  /** Signature timestamp tolerance, either direction. Default 300 s. */
  toleranceSeconds?: number
  /** How long handlers may run before the answer is 503. Default 8000 ms (the service waits 10 s). */
  handlerTimeoutMs?: number
  /** How long a claim blocks other deliveries of the event if its holder dies. Default 60 000 ms. */
  claimTtlMs?: number
}

/** `processed`: handlers ran and succeeded. `duplicate`: they had already. `ignored`: none registered. */
export type ReceiveStatus = 'processed' | 'duplicate' | 'ignored'

export interface ReceiveResult {
  status: ReceiveStatus
  /** The event as fetched from the service. */
  event: Event
}

/** A delivery from any transport, for `handleDelivery` (AWS Lambda, a queue consumer, …). */
export interface IncomingDelivery {
  method: string
  /** Absolute, or only the path and query. */
  url: string
  headers: HeaderSource
  /**
   * The raw body text (signatures are computed over it byte for byte), or a function reading it:
   * called only for a POST, and its `WebhooksError` (say `payload_too_large`) becomes the answer.
   */
  body: string | (() => Promise<string>)
}

/** The answer to send back, transport-neutral. */
export interface DeliveryResponse {
  status: number
  headers: Record<string, string>
  body: string
}
