import { ApiError } from '@chargekit/client'
import type { CustomerAction } from '../orders/order.js'
import type { ShopContext } from '../shop-context.js'

/**
 * What the sandbox's test helpers let the shop play for a customer who pays outside it: approve or
 * refuse the MB WAY request in the app, pay the Multibanco reference, or let the deadline pass.
 */
export const customerAnswers = {
  mbway: ['approve', 'decline', 'expire'],
  multibanco: ['pay', 'expire'],
} as const satisfies Record<CustomerAction['method'], readonly string[]>

export type CustomerAnswer = (typeof customerAnswers)[CustomerAction['method']][number]

export const customerAnswerLabels: Record<CustomerAnswer, string> = {
  approve: 'Approve in the app',
  decline: 'Refuse in the app',
  pay: 'Pay the reference',
  expire: 'Let it expire',
}

/**
 * Plays the customer's answer through the sandbox (`POST /v2/test/instruments/{id}/{answer}`),
 * from the shop's server with the private key: the page never holds a key that could call a test
 * helper. The order changes when the resulting webhook arrives, as for a real customer. An
 * instrument that no longer waits (answered already, expired meanwhile) answers 409: its own
 * webhook tells the order what happened.
 */
export async function simulateCustomer(
  context: ShopContext,
  instrumentId: string,
  answer: CustomerAnswer,
): Promise<void> {
  try {
    await context.client.request({
      method: 'POST',
      path: `/test/instruments/${encodeURIComponent(instrumentId)}/${answer}`,
    })
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return
    throw error
  }
}
