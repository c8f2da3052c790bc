import type { CheckoutFlow } from '../orders/order.js'

/**
 * What the customer does at the order page: type a card, give the phone number of their MB WAY
 * app, or nothing at all (the shop asks the service for a Multibanco reference to show).
 */
export type PaymentMethod = 'card' | 'mbway' | 'multibanco'

export interface CheckoutFlowSettings {
  label: string
  hint: string
  method: PaymentMethod
  /** The charge type of the order's charge; the shop offers the flow only when the service does. */
  chargeType: string
  channel: string
  instrumentParams: { captured_on_creation: boolean; enable3ds: boolean }
  /** The currencies the method takes; absent: any. */
  currencies?: readonly string[]
  /**
   * Whether the service can refund the payment. A Multibanco payment cannot (the merchant returns
   * the money by bank transfer), and the service's list of charge types does not say so: the
   * shop knows it, and offers no refund form.
   */
  refundable: boolean
}

/**
 * How each checkout flow configures its charge. The channel label is the charge_type, an
 * underscore and the processor: `no_processor` honours the test amounts, the sandbox's
 * `simulated_acquirer` adds 3-D Secure and asynchronous captures, and `mbway` / `multibanco` are
 * the Portuguese networks (euros only).
 */
export const checkoutFlowSettings: Record<CheckoutFlow, CheckoutFlowSettings> = {
  pay: {
    label: 'Pay now',
    hint: 'The card is charged as soon as it is authorized.',
    method: 'card',
    chargeType: 'card_onetime',
    channel: 'card_onetime_no_processor',
    instrumentParams: { captured_on_creation: true, enable3ds: false },
    refundable: true,
  },
  authorize: {
    label: 'Authorize now, capture later',
    hint: 'The amount is held on the card; capture or cancel it from the order page.',
    method: 'card',
    chargeType: 'card_onetime',
    channel: 'card_onetime_no_processor',
    instrumentParams: { captured_on_creation: false, enable3ds: false },
    refundable: true,
  },
  three_ds: {
    label: 'Pay with 3-D Secure',
    hint: "The card issuer's verification page opens before the payment goes through.",
    method: 'card',
    chargeType: 'card_onetime',
    channel: 'card_onetime_simulated_acquirer',
    instrumentParams: { captured_on_creation: true, enable3ds: true },
    refundable: true,
  },
  mbway: {
    label: 'MB WAY',
    hint: 'The payment request goes to the MB WAY app on your phone; approve it there.',
    method: 'mbway',
    chargeType: 'mbway',
    channel: 'mbway_mbway',
    instrumentParams: { captured_on_creation: true, enable3ds: false },
    currencies: ['EUR'],
    refundable: true,
  },
  multibanco: {
    label: 'Multibanco reference',
    hint: 'Pay the reference at a Multibanco ATM or in your home banking within 3 days.',
    method: 'multibanco',
    chargeType: 'multibanco',
    channel: 'multibanco_multibanco',
    instrumentParams: { captured_on_creation: true, enable3ds: false },
    currencies: ['EUR'],
    refundable: false,
  },
}

/**
 * The flows a product can be bought with: those taking its currency and, when the service's
 * charge types are known, whose charge type the service offers.
 */
export function flowsFor(
  currency: string,
  offeredChargeTypes?: ReadonlySet<string>,
): CheckoutFlow[] {
  return (Object.keys(checkoutFlowSettings) as CheckoutFlow[]).filter((flow) => {
    const settings = checkoutFlowSettings[flow]
    const takesCurrency = settings.currencies?.includes(currency) ?? true
    return takesCurrency && (offeredChargeTypes?.has(settings.chargeType) ?? true)
  })
}
