import type { Event } from '@chargekit/schemas'
import { fetchClaimedEvent } from './authenticate-event'
import type { ClaimResult, DeliveryStore } from './delivery-store'
import { type DeliveryRef, describeCause, WebhooksError } from './errors'
import type { HandlerRegistry } from './handler-registry'
import { createHandlerContext, failuresWithin, runHandlers, TIMED_OUT } from './run-handlers'
import type { EventHandler, ReceiveResult, WebhooksClient } from './types'

export interface DeliveryProcessorOptions {
  client: WebhooksClient
  store: DeliveryStore
  registry: HandlerRegistry
  handlerTimeoutMs: number
  claimTtlMs: number
}

/**
 * The exactly-once core, for a delivery whose `{ id, type }` was read: fetch the event and
 * compare it with the claim (forgeries stop here), claim it in the store, run its handlers within
 * the timeout, then complete the claim or release it. Anything not acknowledged is thrown as a
 * `WebhooksError`; telling `onError` about it is the caller's job, store failures after the
 * handlers ran excepted (they do not change the answer, so they are reported here).
 */
export function createDeliveryProcessor({
  client,
  store,
  registry,
  handlerTimeoutMs,
  claimTtlMs,
}: DeliveryProcessorOptions): (delivery: DeliveryRef) => Promise<ReceiveResult> {
  async function claimEvent(eventId: string, delivery: DeliveryRef): Promise<ClaimResult> {
    let claim: unknown
    try {
      claim = await store.claim(eventId, claimTtlMs)
    } catch (cause) {
      throw storeFailure('claim', delivery, cause, 'The service will retry the delivery.')
    }
    if (isClaimResult(claim)) return claim
    throw new WebhooksError(
      'store_failed',
      `The delivery store's claim must return { status: 'claimed', lease: string }, { status: 'in_flight' } or { status: 'done' }; got ${describeClaim(claim)}. Fix the store; the service will retry the delivery.`,
      { delivery },
    )
  }

  async function runClaimed(
    event: Event,
    handlers: readonly EventHandler[],
    delivery: DeliveryRef,
    lease: string,
  ): Promise<void> {
    const { context, abort } = createHandlerContext(delivery.compact)
    const run = runHandlers(handlers, event, context)
    if (Array.isArray(run)) return settle(event, run, delivery, lease)
    const failures = await failuresWithin(run, handlerTimeoutMs)
    if (failures !== TIMED_OUT) return settle(event, failures, delivery, lease)
    const timeout = new WebhooksError(
      'handler_timeout',
      `The handlers of event "${event.id}" (${event.type}) did not finish within ${handlerTimeoutMs} ms; their signal was aborted and the answer is 503. The claim is kept until they settle: if they still succeed, the retry is acknowledged without running them again; if they fail, the retry runs them.`,
      { delivery },
    )
    abort(timeout)
    // Releasing now would let the retry run the event while this run still goes. If the handlers
    // outlive the claim and a retry takes it over, the lease keeps their late release from
    // freeing the retry's claim.
    void run.then(async (late) => {
      try {
        await settle(event, late, delivery, lease)
      } catch (error) {
        // Failing because the abort told them to stop was already reported as the timeout.
        if (!late.every((failure) => failure === timeout)) registry.report(error as WebhooksError)
      }
    })
    throw timeout
  }

  /** Completes the claim after success; releases it after a failure, then throws. */
  async function settle(
    event: Event,
    failures: readonly unknown[],
    delivery: DeliveryRef,
    lease: string,
  ): Promise<void> {
    if (failures.length === 0) {
      try {
        await store.complete(event.id)
      } catch (cause) {
        // The handlers' effects happened: a retry would repeat them, so the delivery is still
        // acknowledged and the store failure only reported.
        registry.report(
          storeFailure(
            'complete',
            delivery,
            cause,
            'The delivery was still acknowledged, since its handlers succeeded.',
          ),
        )
      }
      return
    }
    try {
      await store.release(event.id, lease)
    } catch (cause) {
      registry.report(
        storeFailure(
          'release',
          delivery,
          cause,
          'The claim holds until it expires (claimTtlMs); retries after that run the handlers.',
        ),
      )
    }
    const reason =
      failures.length === 1 ? describeCause(failures[0]) : `${failures.length} handlers failed`
    throw new WebhooksError(
      'handler_failed',
      `A handler of event "${event.id}" (${event.type}) failed: ${reason}. The claim was released and the answer is 500, so the service's retry runs the handlers again.`,
      { cause: failures.length === 1 ? failures[0] : new AggregateError(failures), delivery },
    )
  }

  return async (delivery) => {
    const handlers = registry.handlersFor(delivery.type)
    // Authenticate even when nothing would run, so a forgery never gets a 2xx.
    const event = await fetchClaimedEvent(client, delivery)
    // Nothing to run here: leave the store alone, so an endpoint that only handles other types
    // cannot mark the event done for the endpoint that does handle it (one endpoint per type).
    if (handlers.length === 0) return { status: 'ignored', event }
    const claim = await claimEvent(event.id, delivery)
    if (claim.status === 'done') return { status: 'duplicate', event }
    if (claim.status === 'in_flight') {
      throw new WebhooksError(
        'in_flight',
        `Event "${event.id}" is being handled by another delivery right now; answered 409 so the service retries later, when it is acknowledged (or run again if that attempt failed).`,
        { delivery },
      )
    }
    await runClaimed(event, handlers, delivery, claim.lease)
    return { status: 'processed', event }
  }
}

function storeFailure(
  operation: string,
  delivery: DeliveryRef,
  cause: unknown,
  consequence: string,
): WebhooksError {
  return new WebhooksError(
    'store_failed',
    `The delivery store failed to ${operation} event "${delivery.id}" (${describeCause(cause)}); check the store's backend. ${consequence}`,
    { cause, delivery },
  )
}

function isClaimResult(value: unknown): value is ClaimResult {
  const claim = value as { status?: unknown; lease?: unknown } | null | undefined
  if (claim?.status === 'in_flight' || claim?.status === 'done') return true
  return claim?.status === 'claimed' && typeof claim.lease === 'string'
}

function describeClaim(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value !== 'object' || value === null) return String(value)
  const { status, lease } = value as { status?: unknown; lease?: unknown }
  return `an object with status ${typeof status === 'string' ? JSON.stringify(status) : String(status)} and a lease of type ${typeof lease}`
}
