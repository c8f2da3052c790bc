import { mbwayDetailsSchema } from '@chargekit/schemas'
import { defineChargeType } from './charge-type'
import type { Outcome } from './outcome'
import type { Processor } from './processor'
import { testAmountOutcome, testAmountSteps } from './test-amounts'

const second = 1_000
const minute = 60 * second
const hour = 60 * minute

/** `912345678` → `91*****78`: enough for the customer to recognise their phone. */
function maskPhone(phone: string): string {
  return `${phone.slice(0, 2)}${'*'.repeat(phone.length - 4)}${phone.slice(-2)}`
}

/**
 * MB WAY, Portugal's mobile wallet: the customer gives the phone number of their MB WAY app, the
 * payment request appears there, and they approve or refuse it within 5 minutes.
 */
export const mbway = defineChargeType({
  id: 'mbway',
  label: 'MB WAY',
  recurring: false,
  instrumentRequest: mbwayDetailsSchema,
  example: { phone_number: '912345678' },
  currencies: ['EUR'],
  params: ({ phone_number }, { fingerprint }) => ({
    phone_number: maskPhone(phone_number),
    fingerprint: fingerprint(phone_number),
  }),
})

/** How long the customer has to answer in the app, before `timeScale`. */
const approvalWindowMs = 5 * minute
/** How long a test phone's simulated customer takes to answer, before `timeScale`. */
const simulatedCustomerDelayMs = 10 * second

/**
 * Test phone numbers whose customer answers by themself: `91000…` approves and `92000…`
 * refuses, 10 s after the request (scaled by `timeScale`). Any other number waits for the test
 * helpers (approve, decline, expire) or its 5-minute window.
 */
function simulatedAnswer(phone: string): { afterMs: number; approved: boolean } | undefined {
  if (phone.startsWith('91000')) return { afterMs: simulatedCustomerDelayMs, approved: true }
  if (phone.startsWith('92000')) return { afterMs: simulatedCustomerDelayMs, approved: false }
  return undefined
}

/**
 * The MB WAY network (channel `mbway_mbway`). The instrument is `pending` until the customer
 * answers the notification: approved → `authorized` (and the payment `success` when the charge
 * captures on creation), refused (03.00.0001) or unanswered within 5 minutes (03.00.0002) →
 * `invalid`. Captures, refunds and reversals answer at once; the charge amount's test codes
 * apply to every step.
 */
export const mbwayProcessor: Processor = {
  name: 'mbway',
  chargeTypes: [mbway],
  descriptor: 'CHARGEKIT*MBWAY',
  settlementDelayMs: 24 * hour,
  ...testAmountSteps,
  authorize(context, request): Outcome {
    const declined = testAmountOutcome(context, 'instrument')
    if (declined.status === 'failed') return declined
    const phone = String(request.details.phone_number)
    const answer = simulatedAnswer(phone)
    return {
      status: 'pending',
      awaiting: 'customer',
      action: { type: 'app', parameters: { phone_number: maskPhone(phone) } },
      expiresAfterMs: approvalWindowMs,
      ...(answer === undefined ? {} : { customerAnswer: answer }),
    }
  },
  completeChallenge: (_context, { approved }) =>
    approved
      ? { status: 'succeeded' }
      : {
          status: 'failed',
          code: '03.00.0001',
          description: 'The customer refused the payment in the MB WAY app',
        },
}
