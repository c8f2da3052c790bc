import { createHash } from 'node:crypto'
import * as z from 'zod'
import type { ChargeType } from './charge-type'
import type { Outcome } from './outcome'
import type { Processor } from './processor'
import { testAmountOutcome, testAmountSteps } from './test-amounts'

/** The customer gives nothing at the instrument step: the reference is made for them. */
export const noCustomerDetails = z.object({})

/**
 * `digits` decimal digits derived from the instrument id: the same instrument always shows the
 * same reference, and references of different instruments differ.
 */
export function referenceDigits(instrumentId: string, digits: number): string {
  const hash = createHash('sha256').update(instrumentId).digest()
  return (hash.readBigUInt64BE(0) % 10n ** BigInt(digits)).toString().padStart(digits, '0')
}

export interface ReferenceProcessorOptions {
  name: string
  chargeType: ChargeType
  descriptor: string
  settlementDelayMs: number
  /** How long the reference can be paid, before `timeScale`. */
  payableForMs: number
  /** What the customer needs to pay, besides the amount and the expiry. */
  reference(instrumentId: string): Record<string, string>
}

/**
 * A payment-reference network (Multibanco, Payshop). The instrument is `pending` with what the
 * customer needs to pay in `redirect.parameters` (the reference, the amount, `expires_at`);
 * paid (the test helper `pay`) → `authorized` and, when the charge captures on creation, the
 * payment `success`; past the expiry → `invalid` (03.00.0002). The charge amount's test codes
 * apply to every step.
 */
export function referenceProcessor(options: ReferenceProcessorOptions): Processor {
  return {
    name: options.name,
    chargeTypes: [options.chargeType],
    descriptor: options.descriptor,
    settlementDelayMs: options.settlementDelayMs,
    ...testAmountSteps,
    authorize(context, request): Outcome {
      const declined = testAmountOutcome(context, 'instrument')
      if (declined.status === 'failed') return declined
      return {
        status: 'pending',
        awaiting: 'customer',
        action: {
          type: 'reference',
          parameters: {
            ...options.reference(request.instrumentId),
            amount: request.amount.amount,
            currency: request.amount.currency,
          },
        },
        expiresAfterMs: options.payableForMs,
      }
    },
  }
}
