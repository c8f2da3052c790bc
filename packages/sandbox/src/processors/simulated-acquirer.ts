import { card, cardOnetime, cardRecurring } from '../card/card-charge-types'
import type { FinalOutcome, Outcome } from './outcome'
import type { Processor } from './processor'

const second = 1_000
const hour = 60 * 60 * second

/**
 * Card numbers with a fixed answer, as acquirers publish for their test environments. Any other
 * number is approved.
 */
const testCards: ReadonlyMap<string, FinalOutcome> = new Map([
  ['4000000000000002', { status: 'failed', code: '03.03.0000' }],
  ['4000000000009995', { status: 'failed', code: '02.03.0000' }],
  ['4000000000000069', { status: 'failed', code: '03.00.0002' }],
  ['4000000000000119', { status: 'failed', code: '04.01.0000' }],
  ['4100000000000019', { status: 'failed', code: '06.02.0000' }],
])

/** How long the acquirer takes to confirm a capture, refund or reversal, before `timeScale`. */
const acquirerConfirmationDelayMs = 2 * second

function later(): Outcome {
  return {
    status: 'pending',
    awaiting: 'processor',
    afterMs: acquirerConfirmationDelayMs,
    outcome: { status: 'succeeded' },
  }
}

/**
 * Behaves like a real card acquirer: a charge asking for 3DS leaves the instrument pending until
 * the customer completes the challenge page; captures, refunds and reversals are pending until
 * the acquirer confirms them a little later; successful money movements settle after a day (both
 * delays scaled by `timeScale`). Test card numbers in {@link testCards} decline.
 */
export const simulatedAcquirer: Processor = {
  name: 'simulated_acquirer',
  chargeTypes: [cardOnetime, cardRecurring, card],
  descriptor: 'CHARGEKIT*ACQUIRER',
  settlementDelayMs: 24 * hour,
  authorize(_context, request) {
    const fixed = request.card && testCards.get(request.card.number)
    if (fixed !== undefined) return fixed
    // Enabling 3DS is a risk rule, so it is reported as one (`instrument.risk`).
    if (request.enable3ds) return { status: 'pending', awaiting: 'customer', risk: true }
    return { status: 'succeeded' }
  },
  completeChallenge: (_context, request) =>
    request.approved ? { status: 'succeeded' } : { status: 'failed', code: '06.01.0000' },
  capture: later,
  refund: later,
  reverse: later,
}
