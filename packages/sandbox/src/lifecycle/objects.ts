// Stored objects as the steps see them: read (404 when missing) and locked, the references
// between them, and the processor's external ids they carry.

import { randomUUID } from 'node:crypto'
import type {
  Charge,
  ChargeReference,
  InstrumentExternalIds,
  TransactionExternalIds,
} from '@chargekit/schemas'
import type { Processor } from '../processors/processor'
import {
  type InstrumentRecord,
  type ObjectFilter,
  type ObjectKind,
  type ObjectKinds,
  type PaymentRecord,
  parentIdOf,
  type RefundRecord,
} from '../storage/records'
import { revise, type StepContext, withChargeLock } from './context'
import { notFound } from './lifecycle-error'

/** An object of this account, or 404 naming what was not found. */
export async function mustGet<K extends ObjectKind>(
  context: StepContext,
  kind: K,
  id: string,
): Promise<ObjectKinds[K]> {
  const object = await context.deps.store.getObject(context.account.id, kind, id)
  if (object === undefined) throw notFound(kind, id)
  return object
}

/**
 * Runs a step on an existing object under the lock of its charge (404 when there is no such
 * object), with the object read again once the lock is held: what the step sees is what no
 * other step of the transaction can change until it is done.
 */
export async function withObjectLocked<K extends ObjectKind, T>(
  context: StepContext,
  kind: K,
  id: string,
  step: (object: ObjectKinds[K]) => Promise<T>,
): Promise<T> {
  const found: { id: string; charge?: unknown } | undefined = await context.deps.store.getObject(
    context.account.id,
    kind,
    id,
  )
  const chargeId = kind === 'charge' ? found?.id : parentIdOf(found?.charge)
  if (chargeId === undefined) throw notFound(kind, id)
  return withChargeLock(context, chargeId, async () => step(await mustGet(context, kind, id)))
}

/** Every object of a kind matching `filter` (few per transaction, so no paging). */
export async function allOf<K extends ObjectKind>(
  context: StepContext,
  kind: K,
  filter: ObjectFilter,
): Promise<ObjectKinds[K][]> {
  const page = await context.deps.store.listObjects(context.account.id, kind, filter, {
    offset: 0,
    limit: Number.POSITIVE_INFINITY,
  })
  return page.items
}

/**
 * How a resource shows the objects related to it: the charge it derives from, an instrument's
 * latest payment, a payment's refunds. Kept on the stored snapshots (not computed when
 * answering), so every event shows them as they stood when it happened.
 */

export function chargeReferenceOf(charge: Charge): ChargeReference {
  return Object.freeze({
    id: charge.id,
    charge_type: charge.charge_type,
    charge_type_label: charge.charge_type_label,
  })
}

/** The instrument once `payment` was created from it: its last payment, and used for good. */
export function withLastPayment(
  context: StepContext,
  instrument: InstrumentRecord,
  payment: PaymentRecord,
): InstrumentRecord {
  return revise(context, instrument, {
    last_payment: Object.freeze({
      id: payment.id,
      success: payment.success,
      status: payment.status ?? 'pending',
    }),
    used: true,
  })
}

/** The payment listing `refund` as it now stands (added at the end, or replaced in place). */
export function withRefund(
  context: StepContext,
  payment: PaymentRecord,
  refund: RefundRecord,
): PaymentRecord {
  const entry = Object.freeze({ id: refund.id, amount: refund.amount, success: refund.success })
  const refunds = payment.refunds ?? []
  const known = refunds.some((other) => other.id === refund.id)
  return revise(context, payment, {
    refunds: known
      ? refunds.map((other) => (other.id === refund.id ? entry : other))
      : [...refunds, entry],
  })
}

const defaultDescriptor = 'CHARGEKIT*SANDBOX'

/**
 * The processor's references for an authorization; with the processor's `transactionId` for it
 * when it gave one (a documented instrument has only descriptor and processor).
 */
export function instrumentExternalIds(
  processor: Processor,
  transactionId?: string,
): InstrumentExternalIds {
  const ids = { descriptor: processor.descriptor ?? defaultDescriptor, processor: processor.name }
  return transactionId === undefined ? ids : { ...ids, ...transactionIds(transactionId) }
}

/** The processor's references for a money movement; the id is made up when it gave none. */
export function transactionExternalIds(
  processor: Processor,
  transactionId = `txn_${randomUUID().replaceAll('-', '')}`,
): TransactionExternalIds {
  return {
    descriptor: processor.descriptor ?? defaultDescriptor,
    processor: processor.name,
    ...transactionIds(transactionId),
  }
}

function transactionIds(transactionId: string) {
  return { transaction_id: transactionId, transaction_id_trunc: transactionId.slice(-8) }
}
