/**
 * Compile-time checks of the handler types, run by `tsc -p packages/webhooks` (typecheck): each
 * `@ts-expect-error` fails the build if the line it guards ever stops being an error.
 */
import type { CreateChargeRequest, Payment, Refund, RequestMetadata } from '@chargekit/schemas'
import { expectTypeOf } from 'vitest'
import type { Webhooks } from '../src/index'

export function handlersAreTypedByEventType(webhooks: Webhooks): void {
  webhooks.on('payment.success', (event) => {
    const payment: Payment = event.payment
    void payment
  })
  webhooks.on(['refund.success', 'refund.error'], (event) => {
    const refund: Refund = event.refund
    void refund
  })
  webhooks.on('charge.created', (event) => {
    // @ts-expect-error a charge event may have no payment
    const payment: Payment = event.payment
    void payment
  })
  // @ts-expect-error not an event type
  webhooks.on('payment.succeeded', () => {})
}

export function onAnyNarrowsInASwitch(webhooks: Webhooks): void {
  webhooks.onAny((event) => {
    switch (event.type) {
      case 'payment.success': {
        const payment: Payment = event.payment
        void payment
        break
      }
      case 'refund.settled': {
        const refund: Refund = event.refund
        void refund
        break
      }
      default: {
        // Types newer than this package arrive here too, still as events.
        const id: string = event.id
        void id
      }
    }
  })
}

// No `Register` augmentation in this program: metadata is as safe as the service's rules make it
// (test/typed-metadata checks a registered type).
export function metadataIsSafeUntilRegistered(webhooks: Webhooks): void {
  webhooks.on('payment.success', (event) => {
    expectTypeOf(event.charge.metadata).toEqualTypeOf<Record<string, unknown> | string>()
    // @ts-expect-error it may be a string: narrow it first
    void event.charge.metadata.order_id
  })
  expectTypeOf<CreateChargeRequest['metadata']>().toEqualTypeOf<RequestMetadata | undefined>()
}
