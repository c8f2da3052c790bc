// The lifecycle's legal-transition rules, checked before any processor is called, including
// the card-testing limit on declined instruments per charge.

import type { Charge, Dispute } from '@chargekit/schemas'
import { chargesConfirm, expandPath } from '@chargekit/schemas/operations'
import type { InstrumentRecord, PaymentRecord } from '../storage/records'
import { revise, type StepContext } from './context'
import { conflict, declined, designationOf, LifecycleError } from './lifecycle-error'
import { exactAmount, sumMinor, toAmount } from './money'
import { allOf } from './objects'

/**
 * The legal-transition rules of the lifecycle, checked before any processor is called. Each
 * throws a 409 with the closest catalogue code: 05.04.0002 instrument not authorized,
 * 05.04.0001 status does not allow the step, 01.02.0000 amount over what is left, 03.04.0000
 * duplicate, 05.03.0000 a charge the merchant has not confirmed (authorized) yet; a failed
 * charge answers with its own failure. Too many declined cards on one charge fail it (see
 * `assertTriesLeft`).
 */

/** A movement that counts against what is left: it succeeded, or the processor is deciding. */
export const inProgress = (object: { status?: string | undefined }) =>
  object.status === 'success' || object.status === 'pending'

/** Confirmation: not for a charge whose charge step already failed. */
export function assertChargeConfirmable(charge: Charge): void {
  if (charge.failure_code !== null) throw failedCharge(charge, 'be confirmed')
}

export async function assertChargeAcceptsInstrument(
  context: StepContext,
  charge: Charge,
): Promise<void> {
  if (charge.failure_code !== null) throw failedCharge(charge, 'take an instrument')
  if (!charge.confirmed) {
    throw conflict(
      '05.03.0000',
      `Charge ${charge.id} is not confirmed: confirm it first with POST ${expandPath(chargesConfirm.path, { id: charge.id })}`,
    )
  }
  const instruments = await allOf(context, 'instrument', { charge: charge.id })
  const live = instruments.find((instrument) => instrument.status !== 'invalid')
  if (live !== undefined) {
    throw conflict(
      '03.04.0000',
      `Charge ${charge.id} already has instrument ${live.id} (${live.status}); a charge has at most one: use it, or create a new charge`,
    )
  }
  await assertTriesLeft(context, charge, instruments)
}

/**
 * A failed charge answers with its own code and designation, the reason it cannot go on (a
 * generic "status does not allow" designation would name the wrong object).
 */
function failedCharge(charge: Charge, what: string): LifecycleError {
  return new LifecycleError(
    'conflict',
    `Charge ${charge.id} failed (${charge.failure_code} ${charge.failure_description}) and cannot ${what}: create a new charge`,
    {
      failureCode: charge.failure_code ?? '99.00.0000',
      failureDescription: charge.failure_description ?? designationOf('99.00.0000'),
    },
  )
}

/**
 * Capture: only an authorized instrument. A recurring instrument is a token: each payment is
 * its own authorization at the processor, of any amount, as long as the captured total stays
 * exact; a one-time instrument takes at most what is left of its authorization.
 */
export async function assertCapturable(
  context: StepContext,
  instrument: InstrumentRecord,
  amountMinor: bigint,
): Promise<void> {
  assertAuthorized(instrument, 'captured')
  const currency = instrument.currency
  const reversals = await allOf(context, 'reversal', { instrument: instrument.id })
  if (reversals.some((reversal) => reversal.status === 'pending')) {
    throw conflict(
      '05.04.0002',
      `Instrument ${instrument.id} is being reversed and can no longer be captured`,
    )
  }
  const payments = await allOf(context, 'payment', { instrument: instrument.id })
  const captured = sumMinor(payments.filter(inProgress), currency)
  if (instrument.recurring === true) {
    if (exactAmount(captured + amountMinor, currency) === undefined) {
      throw conflict(
        '01.02.0000',
        `Instrument ${instrument.id} has captured so much that its captured total would no longer be exact: capture on a new charge`,
      )
    }
    return
  }
  const authorized = sumMinor([{ amount: instrument.amount }], currency)
  if (amountMinor > authorized) {
    throw conflict(
      '01.02.0000',
      `Amount exceeds the ${instrument.amount} ${currency} authorized on instrument ${instrument.id}`,
    )
  }
  if (captured >= authorized) {
    throw conflict(
      '05.04.0001',
      `Instrument ${instrument.id} is already fully captured; only recurring instruments take more payments`,
    )
  }
  if (captured + amountMinor > authorized) {
    throw conflict(
      '01.02.0000',
      `Amount exceeds what is left to capture on instrument ${instrument.id} (authorized − captured)`,
    )
  }
}

/** Reversal: only an authorized instrument with nothing captured, for its full amount. */
export async function assertReversible(
  context: StepContext,
  instrument: InstrumentRecord,
  amountMinor: bigint | undefined,
): Promise<void> {
  assertAuthorized(instrument, 'reversed')
  const currency = instrument.currency
  const payments = await allOf(context, 'payment', { instrument: instrument.id })
  if (payments.some(inProgress)) {
    throw conflict(
      '05.04.0001',
      `Instrument ${instrument.id} is already captured and cannot be reversed: refund its payments instead`,
    )
  }
  const reversals = await allOf(context, 'reversal', { instrument: instrument.id })
  if (reversals.some((reversal) => reversal.status === 'pending')) {
    throw conflict('03.04.0000', `Instrument ${instrument.id} is already being reversed`)
  }
  const authorized = sumMinor([{ amount: instrument.amount }], currency)
  if (amountMinor !== undefined && amountMinor !== authorized) {
    throw conflict(
      '01.02.0000',
      `A reversal voids the full authorization: omit amount or send ${instrument.amount}`,
    )
  }
}

/**
 * Refund: only a successful payment, for at most what is neither refunded nor disputed. A dispute
 * that is open or lost has already sent (or may send) its amount back to the customer, so a
 * refund of it would pay them twice; a won dispute frees its amount again.
 */
export async function assertRefundable(
  context: StepContext,
  payment: PaymentRecord,
  amountMinor: bigint,
): Promise<void> {
  if (payment.status !== 'success') {
    throw conflict(
      '05.04.0001',
      `Payment ${payment.id} is ${payment.status}: only a successful payment can be refunded`,
    )
  }
  const refunds = await allOf(context, 'refund', { payment: payment.id })
  const refunded = sumMinor(refunds.filter(inProgress), payment.currency)
  const disputed = await disputedMinor(context, payment)
  const captured = sumMinor([payment], payment.currency)
  if (refunded + disputed + amountMinor > captured) {
    throw conflict(
      '01.02.0000',
      disputed === 0n
        ? `Refunds would exceed the captured ${payment.amount} ${payment.currency} of payment ${payment.id}`
        : `Refunds and disputes would exceed the captured ${payment.amount} ${payment.currency} of payment ${payment.id}: ${toAmount(disputed, payment.currency)} ${payment.currency} is disputed`,
    )
  }
}

/** What open and lost disputes hold of a payment (won ones hold nothing). */
async function disputedMinor(context: StepContext, payment: PaymentRecord): Promise<bigint> {
  const disputes = await allOf(context, 'dispute', { payment: payment.id })
  return sumMinor(
    disputes.filter((dispute) => dispute.status !== 'won'),
    payment.currency,
  )
}

/** What can still be disputed: captured − refunded − earlier disputes not won by the merchant. */
export async function disputableMinor(
  context: StepContext,
  payment: PaymentRecord,
): Promise<bigint> {
  if (payment.status !== 'success') {
    throw conflict(
      '05.04.0001',
      `Payment ${payment.id} is ${payment.status}: only a successful payment can be disputed`,
    )
  }
  const refunds = await allOf(context, 'refund', { payment: payment.id })
  return (
    sumMinor([payment], payment.currency) -
    sumMinor(refunds.filter(inProgress), payment.currency) -
    (await disputedMinor(context, payment))
  )
}

export function assertDisputeOpen(dispute: Dispute): void {
  if (dispute.status !== 'open') {
    throw conflict('05.04.0001', `Dispute ${dispute.id} is already settled (${dispute.status})`)
  }
}

function assertAuthorized(instrument: InstrumentRecord, what: string): void {
  if (instrument.status !== 'authorized') {
    throw conflict(
      '05.04.0002',
      `Instrument ${instrument.id} is ${instrument.status}, not authorized: it cannot be ${what}`,
    )
  }
}

export const tooManyTriesCode = '02.01.0000'

/** Declined by the processor (or the sandbox); an instrument the merchant invalidated has no code. */
const isDeclined = (instrument: InstrumentRecord) =>
  instrument.status === 'invalid' && instrument.failure_code !== null

/**
 * Card-testing defence. Instruments are created with the public key, from the internet, so a
 * fraudster can try stolen card numbers on one checkout until one works. A charge therefore takes
 * at most `maxDeclinedInstruments` declined cards: the next attempt fails the charge with
 * 02.01.0000 Too Many Tries (`charge.error`, 402), and every later one answers that failure, so
 * the customer starts again with a new charge, which the merchant's server creates and can refuse.
 */
export async function assertTriesLeft(
  context: StepContext,
  charge: Charge,
  instruments: readonly InstrumentRecord[],
): Promise<void> {
  const { deps, account } = context
  const declinedCount = instruments.filter(isDeclined).length
  if (declinedCount < deps.maxDeclinedInstruments) return
  const description = designationOf(tooManyTriesCode)
  const failed = revise(context, charge, {
    failure_code: tooManyTriesCode,
    failure_description: description,
  })
  await deps.store.putObject(account.id, 'charge', failed)
  await deps.recordEvent(account.id, 'charge.error', failed.id, { charge: failed })
  throw declined(
    {
      code: tooManyTriesCode,
      description,
      message: `Charge ${charge.id} was declined ${declinedCount} times, the most one charge takes: start the payment again with a new charge`,
    },
    { charge: charge.id },
  )
}
