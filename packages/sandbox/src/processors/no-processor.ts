import { decodeTestAmount, type TestElement } from '@chargekit/errors'
import type { Channel } from '@chargekit/schemas'
import type { FinalOutcome, Outcome, Processor, ProcessorContext } from './processor'

const succeeded: FinalOutcome = { status: 'succeeded' }
const name = 'no_processor'

/**
 * Error testing by amount: the CHARGE amount decides every element, even for payments and
 * refunds that carry their own amount. An amount that encodes the element being processed
 * fails that step with the encoded code; anything else succeeds.
 */
function decide(context: ProcessorContext, element: TestElement): FinalOutcome {
  const decoded = decodeTestAmount(context.charge.amount)
  return decoded?.element === element ? { status: 'failed', code: decoded.code } : succeeded
}

/** Whether a charge on this channel follows the error-testing-by-amount procedure. */
export function isErrorTestingChannel(channel: Channel | undefined): boolean {
  return channel?.processor === name
}

/**
 * Whether a charge on this channel tests the reversal (`.50`): such a charge is not captured on
 * creation unless the merchant asks, since a captured authorization cannot be reversed.
 */
export function targetsReversalTest(channel: Channel | undefined, amount: number): boolean {
  return isErrorTestingChannel(channel) && decodeTestAmount(amount)?.element === 'reversal'
}

/**
 * The error-testing processor ([test amounts](../../../../docs/service/errors.md)):
 * synchronous, and fails only where the amount says so. A charge asking for 3-D Secure
 * (`enable3ds`) gets the challenge page once the amount lets the instrument through; enabling
 * 3DS is a risk rule, so it also reports `instrument.risk`.
 */
export const noProcessor: Processor = {
  name,
  chargeTypes: ['card_onetime', 'card_recurring'],
  descriptor: 'CHARGEKIT*TEST',
  onCharge: (context) => decide(context, 'charge'),
  authorize(context, request): Outcome {
    const outcome = decide(context, 'instrument')
    if (outcome.status === 'failed' || !request.enable3ds) return outcome
    return { status: 'pending', awaiting: 'customer', risk: true }
  },
  capture: (context) => decide(context, 'payment'),
  refund: (context) => decide(context, 'refund'),
  reverse: (context) => decide(context, 'reversal'),
}
