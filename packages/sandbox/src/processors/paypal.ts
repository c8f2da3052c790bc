import { defineChargeType } from './charge-type'
import type { Outcome } from './outcome'
import { noCustomerDetails } from './payment-reference'
import type { Processor } from './processor'
import { testAmountOutcome, testAmountSteps } from './test-amounts'

const hour = 60 * 60 * 1_000

/** PayPal: the customer signs in to PayPal and approves the payment there. */
export const paypal = defineChargeType({
  id: 'paypal',
  label: 'PayPal',
  recurring: false,
  instrumentRequest: noCustomerDetails,
  example: {},
})

/**
 * PayPal (channel `paypal_paypal`): the instrument is `pending` with `redirect.url` to the
 * sandbox's approval page, standing in for PayPal's; approved → `authorized`, cancelled
 * (03.00.0001) or left for 3 hours (03.00.0002) → `invalid`. The charge amount's test codes apply
 * to every step.
 */
export const paypalProcessor: Processor = {
  name: 'paypal',
  chargeTypes: [paypal],
  descriptor: 'CHARGEKIT*PAYPAL',
  settlementDelayMs: 24 * hour,
  ...testAmountSteps,
  authorize(context): Outcome {
    const declined = testAmountOutcome(context, 'instrument')
    if (declined.status === 'failed') return declined
    return {
      status: 'pending',
      awaiting: 'customer',
      action: { type: 'approval_page' },
      expiresAfterMs: 3 * hour,
    }
  },
  completeChallenge: (_context, { approved }) =>
    approved
      ? { status: 'succeeded' }
      : { status: 'failed', code: '03.00.0001', description: 'The customer cancelled at PayPal' },
}
