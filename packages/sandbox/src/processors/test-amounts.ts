import { decodeTestAmount, type TestElement } from '@chargekit/errors'
import type { FinalOutcome } from './outcome'
import type { Processor, ProcessorContext } from './processor'

const succeeded: FinalOutcome = { status: 'succeeded' }

/**
 * Error testing by amount ([test amounts](../../../../docs/service/errors.md)): the CHARGE
 * amount decides every element, even for payments and refunds that carry their own amount. An
 * amount that encodes the element being processed fails that step with the encoded code;
 * anything else succeeds.
 */
export function testAmountOutcome(context: ProcessorContext, element: TestElement): FinalOutcome {
  const decoded = decodeTestAmount(context.charge.amount)
  return decoded?.element === element ? { status: 'failed', code: decoded.code } : succeeded
}

/**
 * Whether a charge tests the reversal (`.50`) on a processor that follows test amounts: such a
 * charge is not captured on creation unless the merchant asks, since a captured authorization
 * cannot be reversed.
 */
export function targetsReversalTest(processor: Processor | undefined, amount: number): boolean {
  return processor?.honoursTestAmounts === true && decodeTestAmount(amount)?.element === 'reversal'
}

/**
 * The steps of a processor that answers at once and fails only where the charge amount says:
 * the charge, the capture, the refund and the reversal.
 */
export const testAmountSteps = {
  honoursTestAmounts: true,
  onCharge: (context) => testAmountOutcome(context, 'charge'),
  capture: (context) => testAmountOutcome(context, 'payment'),
  refund: (context) => testAmountOutcome(context, 'refund'),
  reverse: (context) => testAmountOutcome(context, 'reversal'),
} as const satisfies Partial<Processor>
