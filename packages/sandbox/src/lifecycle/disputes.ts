// Disputes: the customer contesting a successful payment (a test helper), and their outcome.

import type { CreateDisputeRequest, Dispute, SettleDisputeRequest } from '@chargekit/schemas'
import { newId } from '../ids'
import { revise, type StepContext } from './context'
import { conflict } from './lifecycle-error'
import { requestedMoney, toAmount } from './money'
import { mustGet, withObjectLocked } from './objects'
import { assertDisputeOpen, disputableMinor } from './transitions'

/**
 * `testHelpers.dispute`: the customer disputes a successful payment, for at most
 * what is captured, not refunded and not already disputed. `dispute.created`.
 */
export async function createDispute(
  context: StepContext,
  paymentId: string,
  input: CreateDisputeRequest,
): Promise<Dispute> {
  const { deps, account } = context
  return withObjectLocked(context, 'payment', paymentId, async (payment) => {
    const available = await disputableMinor(context, payment)
    const amount =
      input.amount === undefined
        ? available
        : requestedMoney(context, input.amount, payment.currency).minorUnits
    if (available <= 0n || amount > available) {
      throw conflict(
        '01.02.0000',
        `Payment ${payment.id} has ${toAmount(available > 0n ? available : 0n, payment.currency)} ${payment.currency} left to dispute (captured − refunded − disputed)`,
      )
    }
    const charge = await mustGet(context, 'charge', payment.charge.id)
    const instrument = await mustGet(context, 'instrument', payment.instrument.id)
    const now = deps.now().toISOString()
    const dispute: Dispute = Object.freeze({
      id: newId('dp'),
      charge: charge.id,
      payment: payment.id,
      amount: toAmount(amount, payment.currency),
      currency: payment.currency,
      reason: input.reason ?? 'general',
      status: 'open',
      created_at: now,
      updated_at: now,
      settled_at: null,
    })
    await deps.store.putObject(account.id, 'dispute', dispute)
    await deps.recordEvent(account.id, 'dispute.created', dispute.id, {
      charge,
      instrument,
      payment,
      dispute,
    })
    return dispute
  })
}

/** `testHelpers.settleDispute`: the provider decides it (won/lost). `dispute.settled`. */
export async function settleDispute(
  context: StepContext,
  disputeId: string,
  input: SettleDisputeRequest,
): Promise<Dispute> {
  const { deps, account } = context
  return withObjectLocked(context, 'dispute', disputeId, async (dispute) => {
    assertDisputeOpen(dispute)
    const payment = await mustGet(context, 'payment', dispute.payment)
    const charge = await mustGet(context, 'charge', dispute.charge)
    const instrument = await mustGet(context, 'instrument', payment.instrument.id)
    const decided = revise(context, dispute, { status: input.outcome })
    const settled: Dispute = Object.freeze({ ...decided, settled_at: decided.updated_at })
    await deps.store.putObject(account.id, 'dispute', settled)
    await deps.recordEvent(account.id, 'dispute.settled', settled.id, {
      charge,
      instrument,
      payment,
      dispute: settled,
    })
    return settled
  })
}
