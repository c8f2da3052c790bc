import { card, cardOnetime, cardRecurring } from '../card/card-charge-types'
import {
  answerCardChallenge,
  authorizeCard,
  captureCard,
  testCardNumbered,
  testCardOf,
} from '../card/test-cards'
import type { FinalOutcome, Outcome } from './outcome'
import type { Processor } from './processor'

const second = 1_000
const hour = 60 * 60 * second

/** How long the acquirer takes to confirm a capture, refund or reversal, before `timeScale`. */
const acquirerConfirmationDelayMs = 2 * second

function later(outcome: FinalOutcome = { status: 'succeeded' }): Outcome {
  return { status: 'pending', awaiting: 'processor', afterMs: acquirerConfirmationDelayMs, outcome }
}

/**
 * Behaves like a real card acquirer: a charge asking for 3DS leaves the instrument pending until
 * the customer completes the challenge page; captures, refunds and reversals are pending until
 * the acquirer confirms them a little later; successful money movements settle after a day (both
 * delays scaled by `timeScale`). The test cards have their fixed outcomes (a failing capture is
 * answered as late as any other).
 */
export const simulatedAcquirer: Processor = {
  name: 'simulated_acquirer',
  chargeTypes: [cardOnetime, cardRecurring, card],
  descriptor: 'CHARGEKIT*ACQUIRER',
  settlementDelayMs: 24 * hour,
  authorize: (_context, request) => authorizeCard(request, testCardNumbered(request.card)),
  completeChallenge: (_context, { instrument, approved }) =>
    answerCardChallenge(approved, testCardOf(instrument)),
  capture: (_context, { instrument }) => later(captureCard(testCardOf(instrument))),
  refund: () => later(),
  reverse: () => later(),
}
