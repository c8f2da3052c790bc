import type { CheckoutFlow } from '../orders/order.js'

/**
 * How each checkout flow configures its charge. The channel label is the charge_type, an
 * underscore and the processor: `no_processor` honours the test amounts, the sandbox's
 * `simulated_acquirer` adds 3-D Secure and asynchronous captures.
 */
export const checkoutFlowSettings: Record<
  CheckoutFlow,
  {
    label: string
    hint: string
    channel: string
    instrumentParams: { captured_on_creation: boolean; enable3ds: boolean }
  }
> = {
  pay: {
    label: 'Pay now',
    hint: 'The card is charged as soon as it is authorized.',
    channel: 'card_onetime_no_processor',
    instrumentParams: { captured_on_creation: true, enable3ds: false },
  },
  authorize: {
    label: 'Authorize now, capture later',
    hint: 'The amount is held on the card; capture or cancel it from the order page.',
    channel: 'card_onetime_no_processor',
    instrumentParams: { captured_on_creation: false, enable3ds: false },
  },
  three_ds: {
    label: 'Pay with 3-D Secure',
    hint: "The card issuer's verification page opens before the payment goes through.",
    channel: 'card_onetime_simulated_acquirer',
    instrumentParams: { captured_on_creation: true, enable3ds: true },
  },
}
