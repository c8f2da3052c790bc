import { decodeTestAmount } from '@chargekit/errors'
import type { Charge } from '@chargekit/schemas'
import { card, cardOnetime, cardRecurring } from '../card/card-charge-types'
import {
  answerCardChallenge,
  authorizeCard,
  captureCard,
  type TestCard,
  testCardNumbered,
  testCardOf,
} from '../card/test-cards'
import type { Outcome } from './outcome'
import type { Processor, ProcessorContext } from './processor'
import { testAmountOutcome, testAmountSteps } from './test-amounts'

const name = 'no_processor'

/**
 * Whether the charge runs the error-testing procedure at the payment step (a `.30` amount on
 * this channel): as the procedure states, the instrument request carries the capture's error
 * and the instrument becomes invalid when the charge is captured on creation.
 */
export function testsPaymentByAmount(charge: Charge): boolean {
  return (
    charge.channels?.[0]?.processor === name &&
    decodeTestAmount(charge.amount)?.element === 'payment'
  )
}

/**
 * The test card a step follows. The amount coding is the service's own procedure for this
 * channel, so it is the authority here: a charge whose amount encodes an error behaves exactly as
 * the procedure says, whatever card pays it, and the test cards decide only the other charges.
 */
function testCardFor(context: ProcessorContext, testCard: TestCard | undefined) {
  return decodeTestAmount(context.charge.amount) === undefined ? testCard : undefined
}

/**
 * The error-testing processor for cards, and the default card channel: synchronous, failing
 * where the amount says so, else where a test card does. A charge asking for 3-D Secure
 * (`enable3ds`) gets the challenge page once the instrument may go through; enabling 3DS is a
 * risk rule, so it also reports `instrument.risk`.
 */
export const noProcessor: Processor = {
  name,
  chargeTypes: [cardOnetime, cardRecurring, card],
  descriptor: 'CHARGEKIT*TEST',
  ...testAmountSteps,
  authorize(context, request): Outcome {
    const coded = testAmountOutcome(context, 'instrument')
    if (coded.status === 'failed') return coded
    return authorizeCard(request, testCardFor(context, testCardNumbered(request.card)))
  },
  completeChallenge: (context, { instrument, approved }) =>
    answerCardChallenge(approved, testCardFor(context, testCardOf(instrument))),
  capture(context, { instrument }) {
    const coded = testAmountOutcome(context, 'payment')
    if (coded.status === 'failed') return coded
    return captureCard(testCardFor(context, testCardOf(instrument)))
  },
}
