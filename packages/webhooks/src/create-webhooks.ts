import type { EventOf, EventType } from '@chargekit/schemas'
import { asWebhooksError, type DeliveryRef } from './errors'
import { createHandlerRegistry } from './handler-registry'
import { resolveOptions } from './options'
import { createDeliveryProcessor } from './process-delivery'
import { readRequestBody } from './read-body'
import { createDeliveryResponder } from './respond-to-delivery'
import type {
  DeliveryResponse,
  ErrorHandler,
  EventHandler,
  IncomingDelivery,
  ReceiveResult,
  WebhooksOptions,
} from './types'

export interface Webhooks {
  /** Runs `handler` for each event of `type` (or of any of several types), typed by it. */
  on<T extends EventType>(type: T | readonly T[], handler: EventHandler<EventOf<T>>): () => void
  /** Runs `handler` for every event, including types this version does not know yet. */
  onAny(handler: EventHandler): () => void
  /** Told about every delivery that was refused or failed (not about in-flight duplicates). */
  onError(handler: ErrorHandler): () => void
  /**
   * For callers with their own transport: fetch the claimed event, dedupe, run the handlers.
   * Throws a `WebhooksError` whose `status` is the answer to give when not acknowledged.
   */
  receive(delivery: DeliveryRef): Promise<ReceiveResult>
  /** Web-standard endpoint: Hono, Next.js route handlers, Bun, Deno, Cloudflare Workers. */
  handleRequest(request: Request): Promise<Response>
  /** The same, transport-neutral: raw body text in, status/headers/body out. */
  handleDelivery(delivery: IncomingDelivery): Promise<DeliveryResponse>
}

/**
 * Receives lifecycle event deliveries with exactly-once effects: each delivery is (optionally)
 * signature-checked, its event fetched with the merchant's client and compared with the claim,
 * claimed in the store, and handed to the typed handlers; an answer is 2xx only once they
 * succeeded, so the service's at-least-once retries never lose an event.
 */
export function createWebhooks(options: WebhooksOptions): Webhooks {
  const { verifySignature, ...processing } = resolveOptions(options)
  const registry = createHandlerRegistry()
  const processDelivery = createDeliveryProcessor({ ...processing, registry })

  const reportFailure = (error: unknown, delivery: DeliveryRef | undefined) => {
    const failure = asWebhooksError(error, delivery)
    // A duplicate of a running event is the deduplication working, not a failure.
    if (failure.code !== 'in_flight') registry.report(failure)
    return failure
  }
  const respond = createDeliveryResponder({ verifySignature, processDelivery, reportFailure })

  return {
    on: (type, handler) =>
      // Sound: the registry only calls it with events whose fetched type is one of `type`.
      registry.on(typeof type === 'string' ? [type] : type, handler as unknown as EventHandler),
    onAny: registry.onAny,
    onError: registry.onError,
    receive: async (delivery) => {
      try {
        return await processDelivery(delivery)
      } catch (error) {
        throw reportFailure(error, delivery)
      }
    },
    handleRequest: async (request) => {
      const answer = await respond({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: () => readRequestBody(request),
      })
      // A fresh Headers per answer (Response copies the record): frameworks append to response
      // headers (CORS, cookies), which must not leak into other answers.
      return new Response(answer.body, { status: answer.status, headers: answer.headers })
    },
    handleDelivery: respond,
  }
}
