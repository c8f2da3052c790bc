import type { Order, OrderFailure } from '../orders/order.js'
import { orderRepository } from '../orders/order-repository.js'
import type { ShopContext } from '../shop-context.js'
import { failureFromError } from './decline.js'

/** Card details as validated from the form (createInstrumentRequestSchema minus `charge`). */
export interface CardDetails {
  name: string
  number: string
  expiration_month: number
  expiration_year: number
  cvc: string
}

export type CardResult =
  /** 3-D Secure: send the customer to the issuer's page; it returns to the order afterwards. */
  | { outcome: 'redirect'; url: string }
  /** Authorized or pending: the webhook will say when it is paid. */
  | { outcome: 'submitted'; instrumentId: string }
  /** The decline as recorded on the order (a later webhook may change the order's own copy). */
  | { outcome: 'declined'; failure: OrderFailure }

/**
 * Creates the instrument (the card authorization) from the order's charge. It never marks the
 * order paid: that is the webhook's job when `instrument.authorized` arrives. Only the card's
 * brand and last 4 digits are kept, from the service's answer, never the number itself.
 */
export async function payWithCard(
  context: ShopContext,
  order: Order & { chargeId: string },
  card: CardDetails,
  requestKey: string,
): Promise<CardResult> {
  try {
    // A double-submitted form is one authorization: the same key replays the first answer.
    const instrument = await context.client.instruments.create(
      { charge: order.chargeId, ...card },
      { idempotencyKey: `card-${order.id}-${requestKey}` },
    )
    await orderRepository.recordCardAttempt(context.db, order.id, {
      instrumentId: instrument.id,
      brand: instrument.params?.brand ?? null,
      last4: instrument.params?.last_4_digits ?? null,
    })
    context.updates.publish(order.id)
    if (instrument.status === 'pending' && instrument.redirect) {
      return { outcome: 'redirect', url: instrument.redirect.url }
    }
    return { outcome: 'submitted', instrumentId: instrument.id }
  } catch (error) {
    const failure = failureFromError('instrument', error)
    await orderRepository.recordFailure(context.db, order.id, failure)
    context.updates.publish(order.id)
    return { outcome: 'declined', failure }
  }
}
