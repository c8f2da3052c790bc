import { toMinorUnits } from '@chargekit/schemas'
import * as z from 'zod'
import type { CheckoutFlow, CustomerAction } from '../orders/order.js'
import { checkoutFlowSettings } from './checkout-flows.js'

/** The part of a pending instrument that tells what the customer must do outside the shop. */
export interface PendingRedirect {
  url: string | null
  parameters?: Record<string, unknown> | undefined
}

const expiresAt = z.iso.datetime({ offset: true })
const mbwayParameters = z.looseObject({ phone_number: z.string().min(1), expires_at: expiresAt })
const multibancoParameters = z.looseObject({
  entity: z.string().regex(/^\d{5}$/),
  reference: z.string().regex(/^\d{9}$/),
  amount: z.number().positive(),
  currency: z.string().length(3),
  expires_at: expiresAt,
})

/**
 * What an order's pending instrument asks of its customer, from `redirect.parameters` (a
 * redirect with a `url` is a page to visit instead, such as 3-D Secure). Undefined when the flow
 * has no such step or the service described it in a way the shop cannot show: the order then
 * simply waits for the webhook, as for a card.
 */
export function customerActionOf(
  flow: CheckoutFlow,
  redirect: PendingRedirect | null | undefined,
): CustomerAction | undefined {
  if (!redirect || redirect.url !== null) return undefined
  const method = checkoutFlowSettings[flow].method
  if (method === 'mbway') {
    const parsed = mbwayParameters.safeParse(redirect.parameters)
    if (!parsed.success) return undefined
    // Masked by the service (`91*****78`): the shop never learns the whole number.
    return { method, phoneNumber: parsed.data.phone_number, expiresAt: parsed.data.expires_at }
  }
  if (method === 'multibanco') {
    const parsed = multibancoParameters.safeParse(redirect.parameters)
    if (!parsed.success) return undefined
    const { entity, reference, amount, currency } = parsed.data
    return {
      method,
      entity,
      reference,
      amountMinor: toMinorUnits(amount, currency),
      currency,
      expiresAt: parsed.data.expires_at,
    }
  }
  return undefined
}
