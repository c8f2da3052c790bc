import type { Channel } from '@chargekit/schemas'
import { card, cardOnetime, cardRecurring } from '../card/card-charge-types'
import type { Outcome } from './outcome'
import type { Processor } from './processor'
import { testAmountOutcome, testAmountSteps } from './test-amounts'

const name = 'no_processor'

/** Whether a charge on this channel follows the error-testing-by-amount procedure. */
export function isErrorTestingChannel(channel: Channel | undefined): boolean {
  return channel?.processor === name
}

/**
 * The error-testing processor for cards: synchronous, and fails only where the amount says so.
 * A charge asking for 3-D Secure (`enable3ds`) gets the challenge page once the amount lets the
 * instrument through; enabling 3DS is a risk rule, so it also reports `instrument.risk`.
 */
export const noProcessor: Processor = {
  name,
  chargeTypes: [cardOnetime, cardRecurring, card],
  descriptor: 'CHARGEKIT*TEST',
  ...testAmountSteps,
  authorize(context, request): Outcome {
    const outcome = testAmountOutcome(context, 'instrument')
    if (outcome.status === 'failed' || !request.enable3ds) return outcome
    return { status: 'pending', awaiting: 'customer', risk: true }
  },
}
