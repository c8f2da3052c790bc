import type { Event, EventOf, EventType } from '@chargekit/schemas'
import { answerError, answerReceived } from './answer'
import { fetchClaimedEvent } from './authenticate-event'
import type { DeliveryStore } from './delivery-store'
import { type DeliveryRef, WebhooksError } from './errors'
import { createHandlerRegistry } from './handler-registry'
import { type HeaderLookup, toHeaderLookup } from './headers'
import { createMemoryDeliveryStore } from './memory-delivery-store'
import { parseDelivery } from './parse-delivery'
import { MAX_BODY_BYTES, payloadTooLarge, readRequestBody } from './read-body'
import { runHandlers, TIMED_OUT, withTimeout } from './run-handlers'
import { createSignatureVerifier } from './signature'
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

const DEFAULT_HANDLER_TIMEOUT_MS = 8_000
const DEFAULT_CLAIM_TTL_MS = 60_000

/**
 * Receives lifecycle event deliveries with exactly-once effects: each delivery is (optionally)
 * signature-checked, its event fetched with the merchant's client and compared with the claim,
 * claimed in the store, and handed to the typed handlers; an answer is 2xx only once they
 * succeeded, so the service's at-least-once retries never lose an event.
 */
export function createWebhooks(options: WebhooksOptions): Webhooks {
  const { client } = options
  if (typeof client?.events?.retrieve !== 'function') {
    throw new WebhooksError(
      'invalid_configuration',
      'createWebhooks: `client` must have events.retrieve(id); pass createClient({ accountId, privateKey, baseUrl }) from @chargekit/client.',
    )
  }
  const store: DeliveryStore = options.store ?? createMemoryDeliveryStore()
  const handlerTimeoutMs = options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS
  const claimTtlMs = options.claimTtlMs ?? Math.max(DEFAULT_CLAIM_TTL_MS, 2 * handlerTimeoutMs)
  checkDurations(handlerTimeoutMs, claimTtlMs)
  const verifySignature =
    options.secret === undefined
      ? undefined
      : createSignatureVerifier(
          options.secret,
          options.toleranceSeconds === undefined
            ? {}
            : { toleranceSeconds: options.toleranceSeconds },
        )
  const registry = createHandlerRegistry()

  async function receiveUnreported(delivery: DeliveryRef): Promise<ReceiveResult> {
    const handlers = registry.handlersFor(delivery.type)
    // Authenticate even when nothing would run, so a forgery never gets a 2xx.
    const event = await fetchClaimedEvent(client, delivery)
    // Nothing to run here: leave the store alone, so an endpoint that only handles other types
    // cannot mark the event done for the endpoint that does handle it (one endpoint per type).
    if (handlers.length === 0) return { status: 'ignored', event }
    const claim = await storeCall(() => store.claim(event.id, claimTtlMs), delivery, 'claim')
    if (claim === 'done') return { status: 'duplicate', event }
    if (claim === 'in_flight') {
      throw new WebhooksError(
        'in_flight',
        `Event "${event.id}" is being handled by another delivery right now; answered 409 so the service retries later, when it is acknowledged (or run again if that attempt failed).`,
        { delivery },
      )
    }
    await runClaimed(event, handlers, delivery)
    return { status: 'processed', event }
  }

  async function runClaimed(event: Event, handlers: EventHandler[], delivery: DeliveryRef) {
    const controller = new AbortController()
    const failures = runHandlers(handlers, event, controller.signal)
    const settled = await withTimeout(failures, handlerTimeoutMs)
    if (settled !== TIMED_OUT) return settle(event, settled, delivery)
    const timeout = new WebhooksError(
      'handler_timeout',
      `The handlers of event "${event.id}" (${event.type}) did not finish within ${handlerTimeoutMs} ms; their signal was aborted and the answer is 503. The claim is kept until they settle: if they still succeed, the retry is acknowledged without running them again; if they fail, the retry runs them.`,
      { delivery },
    )
    controller.abort(timeout)
    // Releasing now could run the event twice while the first run is still going.
    failures
      .then((late) => settle(event, late, delivery))
      .catch((error: WebhooksError) => {
        // Failing because our abort told them to stop was already reported as the timeout.
        const causes = (error.cause as AggregateError | undefined)?.errors ?? [error.cause]
        if (!causes.every((cause) => cause === timeout)) registry.report(error)
      })
    throw timeout
  }

  /** Completes the claim after success, releases it after a failure (then throws). */
  async function settle(event: Event, failures: unknown[], delivery: DeliveryRef) {
    if (failures.length === 0) {
      // The handlers' effects happened: a store failure now must not turn into a retry that
      // repeats them, so the delivery is still acknowledged and the store failure only reported.
      await storeCall(() => store.complete(event.id), delivery, 'complete').catch(registry.report)
      return
    }
    await storeCall(() => store.release(event.id), delivery, 'release').catch(registry.report)
    const cause = failures.length === 1 ? failures[0] : new AggregateError(failures)
    const reason =
      failures.length === 1 ? describe(failures[0]) : `${failures.length} handlers failed`
    throw new WebhooksError(
      'handler_failed',
      `A handler of event "${event.id}" (${event.type}) failed: ${reason}. The claim was released and the answer is 500, so the service's retry runs the handlers again.`,
      { cause, delivery },
    )
  }

  async function respond(
    method: string,
    url: string,
    headers: HeaderLookup,
    readBody: () => Promise<string>,
  ): Promise<DeliveryResponse> {
    let delivery: DeliveryRef | undefined
    try {
      if (method.toUpperCase() !== 'POST') {
        throw new WebhooksError(
          'method_not_allowed',
          `${method} is not a delivery: events arrive as POST requests.`,
        )
      }
      const body = await readBody()
      // Before anything else: an unsigned request costs no parsing and no event fetch.
      await verifySignature?.(body, headers)
      delivery = parseDelivery({ url, contentType: headers('content-type'), body })
      return answerReceived(await receiveUnreported(delivery))
    } catch (error) {
      const failure = asWebhooksError(error, delivery)
      if (failure.code !== 'in_flight') registry.report(failure)
      return answerError(failure)
    }
  }

  return {
    on: (type, handler) =>
      // Sound: the registry only calls it with events whose fetched type is one of `type`.
      registry.on(typeof type === 'string' ? [type] : type, handler as unknown as EventHandler),
    onAny: registry.onAny,
    onError: registry.onError,
    receive: async (delivery) => {
      try {
        return await receiveUnreported(delivery)
      } catch (error) {
        const failure = asWebhooksError(error, delivery)
        if (failure.code !== 'in_flight') registry.report(failure)
        throw failure
      }
    },
    handleRequest: async (request) => {
      const answer = await respond(
        request.method,
        request.url,
        toHeaderLookup(request.headers),
        () => readRequestBody(request),
      )
      // A fresh Headers per answer: frameworks append to response headers (CORS, cookies).
      return new Response(answer.body, {
        status: answer.status,
        headers: new Headers(answer.headers),
      })
    },
    handleDelivery: ({ method, url, headers, body }) =>
      respond(method, url, toHeaderLookup(headers), async () => {
        const text = typeof body === 'string' ? body : await body()
        if (text.length > MAX_BODY_BYTES) throw payloadTooLarge()
        return text
      }),
  }
}

async function storeCall<T>(
  call: () => T | Promise<T>,
  delivery: DeliveryRef,
  operation: string,
): Promise<T> {
  try {
    return await call()
  } catch (cause) {
    throw new WebhooksError(
      'store_failed',
      `The delivery store failed to ${operation} event "${delivery.id}" (${describe(cause)}); check the store's backend. The service will retry the delivery.`,
      { cause, delivery },
    )
  }
}

function checkDurations(handlerTimeoutMs: number, claimTtlMs: number) {
  if (!(Number.isFinite(handlerTimeoutMs) && handlerTimeoutMs > 0)) {
    throw new WebhooksError(
      'invalid_configuration',
      `handlerTimeoutMs must be a finite number of milliseconds > 0; got ${String(handlerTimeoutMs)}.`,
    )
  }
  if (!(Number.isFinite(claimTtlMs) && claimTtlMs >= handlerTimeoutMs)) {
    throw new WebhooksError(
      'invalid_configuration',
      `claimTtlMs must be finite and at least handlerTimeoutMs (${handlerTimeoutMs}); got ${String(claimTtlMs)}. A claim that expires while its handlers still run lets a retry run the event twice.`,
    )
  }
}

function asWebhooksError(error: unknown, delivery: DeliveryRef | undefined): WebhooksError {
  if (error instanceof WebhooksError) return error
  return new WebhooksError(
    'internal_error',
    `Unexpected failure while receiving a delivery: ${describe(error)}. Please report it with the cause; the service will retry the delivery.`,
    { cause: error, delivery },
  )
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
