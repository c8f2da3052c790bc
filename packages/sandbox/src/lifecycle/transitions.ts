import type { Charge, Dispute, Instrument, Payment } from '@chargekit/schemas'
import { conflict } from '../api-problem'
import type { StepContext } from './context'
import { exactAmount, sumMinor } from './money'
import { allOf } from './objects'

/**
 * The legal transitions of the lifecycle, checked before any processor is called. Each breach
 * is a 409 with the closest catalogue code:
 * 05.04.0002 instrument not authorized, 05.04.0001 status does not allow the step,
 * 01.02.0000 amount over what is left, 03.04.0000 duplicate.
 */

const inProgress = (object: { status?: string | undefined }) =>
  object.status === 'success' || object.status === 'pending'

export async function assertChargeAcceptsInstrument(
  context: StepContext,
  charge: Charge,
): Promise<void> {
  if (!charge.confirmed) {
    throw conflict(
      '05.04.0001',
      `Charge ${charge.id} failed (${charge.failure_code}) and cannot take an instrument: create a new charge`,
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
}

/** Capture: only an authorized instrument, at most what is left of the authorization. */
export async function assertCapturable(
  context: StepContext,
  instrument: Instrument,
  amountMinor: bigint,
): Promise<void> {
  assertAuthorized(instrument, 'captured')
  const currency = instrument.currency ?? ''
  const reversals = await allOf(context, 'reversal', { instrument: instrument.id })
  if (reversals.some((reversal) => reversal.status === 'pending')) {
    throw conflict(
      '05.04.0002',
      `Instrument ${instrument.id} is being reversed and can no longer be captured`,
    )
  }
  const authorized = sumMinor([{ amount: instrument.amount ?? 0 }], currency)
  if (amountMinor > authorized) {
    throw conflict(
      '01.02.0000',
      `Amount exceeds the ${instrument.amount} ${currency} authorized on instrument ${instrument.id}`,
    )
  }
  const payments = await allOf(context, 'payment', { instrument: instrument.id })
  const captured = sumMinor(payments.filter(inProgress), currency)
  if (instrument.recurring === true) {
    // Each payment may take the whole authorization, but their total must stay exact.
    if (exactAmount(captured + amountMinor, currency) === undefined) {
      throw conflict(
        '01.02.0000',
        `Instrument ${instrument.id} has captured so much that its captured total would no longer be exact: capture on a new charge`,
      )
    }
    return
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
  instrument: Instrument,
  amountMinor: bigint | undefined,
): Promise<void> {
  assertAuthorized(instrument, 'reversed')
  const currency = instrument.currency ?? ''
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
  const authorized = sumMinor([{ amount: instrument.amount ?? 0 }], currency)
  if (amountMinor !== undefined && amountMinor !== authorized) {
    throw conflict(
      '01.02.0000',
      `A reversal voids the full authorization: omit amount or send ${instrument.amount}`,
    )
  }
}

/** Refund: only a successful payment, all refunds together at most the captured amount. */
export async function assertRefundable(
  context: StepContext,
  payment: Payment,
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
  const captured = sumMinor([payment], payment.currency)
  if (refunded + amountMinor > captured) {
    throw conflict(
      '01.02.0000',
      `Refunds would exceed the captured ${payment.amount} ${payment.currency} of payment ${payment.id}`,
    )
  }
}

/** What can still be disputed: captured − refunded − earlier disputes not won by the merchant. */
export async function disputableMinor(context: StepContext, payment: Payment): Promise<bigint> {
  if (payment.status !== 'success') {
    throw conflict(
      '05.04.0001',
      `Payment ${payment.id} is ${payment.status}: only a successful payment can be disputed`,
    )
  }
  const refunds = await allOf(context, 'refund', { payment: payment.id })
  const disputes = await allOf(context, 'dispute', { payment: payment.id })
  return (
    sumMinor([payment], payment.currency) -
    sumMinor(refunds.filter(inProgress), payment.currency) -
    sumMinor(
      disputes.filter((dispute) => dispute.status !== 'won'),
      payment.currency,
    )
  )
}

export function assertDisputeOpen(dispute: Dispute): void {
  if (dispute.status !== 'open') {
    throw conflict('05.04.0001', `Dispute ${dispute.id} is already settled (${dispute.status})`)
  }
}

function assertAuthorized(instrument: Instrument, what: string): void {
  if (instrument.status !== 'authorized') {
    throw conflict(
      '05.04.0002',
      `Instrument ${instrument.id} is ${instrument.status}, not authorized: it cannot be ${what}`,
    )
  }
}
