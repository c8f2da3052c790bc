import { decodeTestAmount, type TestElement } from '@chargekit/errors'
import type { FinalOutcome, Outcome, Processor, ProcessorContext } from '@chargekit/sandbox'
import { voucher } from './voucher'

const second = 1_000
const minute = 60 * second
const hour = 60 * minute

/**
 * Error testing by amount: when the charge amount encodes an error code for `element`
 * (`2030000.20` = 02.03.0000 at the instrument step), that step fails with the code.
 */
function testAmountOutcome(context: ProcessorContext, element: TestElement): FinalOutcome {
  const decoded = decodeTestAmount(context.charge.amount)
  return decoded?.element === element
    ? { status: 'failed', code: decoded.code }
    : { status: 'succeeded' }
}

/** Above this amount (in minor units) the issuer asks the customer to confirm in its app. */
const confirmationThreshold = 100_00n

/**
 * The Voucherly issuer (channel `voucher_voucherly`). It checks the voucher's balance, which
 * takes it a few seconds (the instrument is `pending` awaiting the processor), except that a
 * payment over 100 must be confirmed by the customer in the Voucherly app within 10 minutes
 * (`pending` awaiting the customer). Test vouchers: `VOID-…` is cancelled (03.00.0002 Instrument
 * Expired) and `EMPT-…` has no balance left (02.03.0000 Insufficient Funds). Refunds credit the
 * voucher again, confirmed a moment later. Every step follows error testing by amount.
 */
export const voucherProcessor: Processor = {
  name: 'voucherly',
  chargeTypes: [voucher],
  descriptor: 'VOUCHERLY',
  honoursTestAmounts: true,
  settlementDelayMs: 24 * hour,
  onCharge: (context) => testAmountOutcome(context, 'charge'),
  authorize(context, request): Outcome {
    const declined = testAmountOutcome(context, 'instrument')
    if (declined.status === 'failed') return declined
    const code = String(request.details.voucher_code)
    if (code.startsWith('VOID-')) return { status: 'failed', code: '03.00.0002' }
    if (code.startsWith('EMPT-')) return { status: 'failed', code: '02.03.0000' }
    if (request.amount.minorUnits > confirmationThreshold) {
      return {
        status: 'pending',
        awaiting: 'customer',
        action: { type: 'app', parameters: { voucher: `****-****-${code.slice(-4)}` } },
        expiresAfterMs: 10 * minute,
      }
    }
    // Decided now, told later: the sandbox applies `outcome` after `afterMs`.
    return {
      status: 'pending',
      awaiting: 'processor',
      afterMs: 3 * second,
      transactionId: `vchk-${request.instrumentId}`,
      outcome: { status: 'succeeded', transactionId: `vauth-${request.instrumentId}` },
    }
  },
  completeChallenge: (_context, { approved }) =>
    approved ? { status: 'succeeded' } : { status: 'failed', code: '03.00.0001' },
  capture: (context) => testAmountOutcome(context, 'payment'),
  refund(context): Outcome {
    const outcome = testAmountOutcome(context, 'refund')
    return { status: 'pending', awaiting: 'processor', afterMs: 2 * second, outcome }
  },
  reverse: (context) => testAmountOutcome(context, 'reversal'),
}
