import { decodeTestAmount, type TestElement } from '@chargekit/errors'
import type { FinalOutcome, Processor, ProcessorContext } from './processor'

const succeeded: FinalOutcome = { status: 'succeeded' }

/**
 * SPEC "Error testing by amount": the CHARGE amount decides every element, even for payments
 * and refunds that carry their own amount. An amount that encodes the element being processed
 * fails that step with the encoded code; anything else succeeds.
 */
function decide(context: ProcessorContext, element: TestElement): FinalOutcome {
  const decoded = decodeTestAmount(context.charge.amount)
  return decoded?.element === element ? { status: 'failed', code: decoded.code } : succeeded
}

/** The spec's test channel processor: synchronous, and fails only where the amount says so. */
export const noProcessor: Processor = {
  name: 'no_processor',
  chargeTypes: ['card_onetime', 'card_recurring'],
  descriptor: 'CHARGEKIT*TEST',
  onCharge: (context) => decide(context, 'charge'),
  authorize: (context) => decide(context, 'instrument'),
  capture: (context) => decide(context, 'payment'),
  refund: (context) => decide(context, 'refund'),
  reverse: (context) => decide(context, 'reversal'),
}
