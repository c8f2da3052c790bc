// Payments (captures), and the money-movement machinery they share with refunds and reversals:
// each is created pending and confirmed or failed by the processor, at once or later.

import type { Charge, CreatePaymentRequest, Reversal } from '@chargekit/schemas'
import { declined, invalidParameters } from '../api-problem'
import { newId } from '../ids'
import type { AwaitingProcessorOutcome, FinalOutcome, Money } from '../processors/processor'
import type { InstrumentRecord, ObjectKinds, PaymentRecord, RefundRecord } from '../storage/records'
import {
  atomically,
  callProcessor,
  failureOf,
  processorMessage,
  processorOf,
  revise,
  type StepContext,
} from './context'
import type { EventObjects } from './events'
import { answerLater } from './later-work'
import { requestedMoney, sumMinor, toAmount } from './money'
import {
  allOf,
  chargeReferenceOf,
  mustGet,
  transactionExternalIds,
  withLastPayment,
  withObjectLocked,
} from './objects'
import { type SettlementSelection, settlementLater } from './settlements'
import { assertCapturable } from './transitions'

/** `payments.create`: capture an amount of an authorized instrument. */
export async function createPayment(
  context: StepContext,
  input: CreatePaymentRequest,
): Promise<PaymentRecord> {
  return withObjectLocked(context, 'instrument', input.instrument, async (instrument) => {
    const charge = await mustGet(context, 'charge', instrument.charge.id)
    if (input.currency !== instrument.currency) {
      throw invalidParameters({
        currency: [`Expected ${instrument.currency}, the currency of instrument ${instrument.id}`],
      })
    }
    const amount = requestedMoney(context, input.amount, input.currency)
    await assertCapturable(context, instrument, amount.minorUnits)
    return capture(context, charge, instrument, amount, {
      description: input.description ?? '',
      metadata: input.metadata ?? {},
    })
  })
}

/**
 * Creates a payment through the processor: `payment.pending` → later `payment.success` |
 * `payment.error`, or one of those at once. The caller holds the charge's lock and has checked
 * the transition. Used by `payments.create` and by capture on creation.
 */
export async function capture(
  context: StepContext,
  charge: Charge,
  instrument: InstrumentRecord,
  amount: Money,
  details: { description: string; metadata: Record<string, unknown> },
): Promise<PaymentRecord> {
  const { processor, processorContext } = processorOf(context, charge)
  const paymentId = newId('pa')
  const outcome = await callProcessor(
    context.deps,
    processor.name,
    'capture',
    () => processor.capture(processorContext, { paymentId, instrument, amount }),
    'later',
  )
  const now = context.deps.now().toISOString()
  const payment: PaymentRecord = Object.freeze({
    id: paymentId,
    amount: amount.amount,
    currency: amount.currency,
    description: details.description,
    success: false,
    failure_description: null,
    metadata: Object.freeze({ ...details.metadata }),
    params: null,
    external_ids: transactionExternalIds(processor),
    request_log: context.requestLog,
    created_at: now,
    updated_at: now,
    charge: chargeReferenceOf(charge),
    instrument: Object.freeze({ id: instrument.id }),
    refunds: [],
    status: 'pending',
    failure_code: null,
    refunded_amount: 0,
    settled_at: null,
  })
  return finishMovement(context, paymentMovement, payment, outcome)
}

/** A successful payment adds its amount to the instrument's `captured_amount`. */
export const paymentMovement: Movement<'payment'> = {
  kind: 'payment',
  step: 'capture',
  parents: async (context, payment) => ({
    charge: await mustGet(context, 'charge', payment.charge.id),
    instrument: await mustGet(context, 'instrument', payment.instrument.id),
  }),
  show: (context, payment, parents) => ({
    ...parents,
    instrument: withLastPayment(context, parents.instrument, payment),
  }),
  async succeed(context, payment, parents) {
    const { instrument } = parents
    const earlier = await allOf(context, 'payment', {
      instrument: instrument.id,
      status: 'success',
    })
    const succeeded = [...earlier.filter((other) => other.id !== payment.id), payment]
    const currency = instrument.currency ?? payment.currency
    const captured = toAmount(sumMinor(succeeded, currency), currency)
    return { ...parents, instrument: revise(context, instrument, { captured_amount: captured }) }
  },
  settles: (payment) => ({ payments: [payment.id] }),
}

/** The money movements: created pending, then confirmed or failed by the processor. */
export interface MovementKinds {
  payment: PaymentRecord
  refund: RefundRecord
  reversal: Reversal
}

/** The objects a movement's events snapshot besides the movement itself, as they stand. */
export interface MovementParents {
  charge: Charge
  instrument: InstrumentRecord
  /** A refund's payment. */
  payment?: PaymentRecord
}

/** What differs between a capture, a refund and a reversal when the processor has answered. */
export interface Movement<
  K extends keyof MovementKinds,
  P extends MovementParents = MovementParents,
> {
  kind: K
  /** The processor step, for logs: `capture`, `refund`, `reverse`. */
  step: string
  /** Reads the movement's parents (the caller holds the charge's lock). */
  parents(context: StepContext, movement: MovementKinds[K]): Promise<P>
  /**
   * The parents as they show the movement in its current state, whatever it is (an
   * instrument's last payment, a payment's list of refunds); unchanged ones returned as they are.
   */
  show(context: StepContext, movement: MovementKinds[K], parents: P): P
  /**
   * The parents as a success changes them (a captured or refunded amount, a voided instrument),
   * unchanged ones returned as they are. It only computes: the writes come after it.
   */
  succeed(context: StepContext, succeeded: MovementKinds[K], parents: P): Promise<P>
  /** What a success leaves for the acquirer's settlement batch, if it settles. */
  settles?(succeeded: MovementKinds[K]): SettlementSelection
  /** Runs once the success is recorded (later events). */
  afterSuccess?(context: StepContext, succeeded: MovementKinds[K], parents: P): Promise<void>
}

/**
 * Records the processor's answer for a money movement, under the charge's lock: `pending`
 * stores it with `{kind}.pending` and schedules the processor's answer; `failed` stores it
 * with `{kind}.error` and answers 402; `succeeded` stores it and the parents it changes, with
 * `{kind}.success`. In every state the parents that show the movement are stored with it. A
 * `transactionId` in any answer becomes the movement's `external_ids`.
 * Every object is computed before the first write, so a step never stops half-written.
 */
export async function finishMovement<K extends keyof MovementKinds, P extends MovementParents>(
  context: StepContext,
  movement: Movement<K, P>,
  object: MovementKinds[K],
  outcome: FinalOutcome | AwaitingProcessorOutcome,
): Promise<MovementKinds[K]> {
  const { deps, account } = context
  const parents = await movement.parents(context, object)
  const { processor } = processorOf(context, parents.charge)
  const references =
    outcome.transactionId === undefined
      ? {}
      : { external_ids: transactionExternalIds(processor, outcome.transactionId) }
  // TypeScript cannot follow K through these: each kind has the fields revised here, and
  // MovementKinds[K] is ObjectKinds[K].
  const withChanges = (changes: Partial<PaymentRecord & RefundRecord & Reversal>) =>
    revise(context, object as PaymentRecord & RefundRecord & Reversal, changes) as MovementKinds[K]
  // The movement and the parents that show it, stored together.
  const put = async (value: MovementKinds[K], shown: P) => {
    await deps.store.putObject(account.id, movement.kind, value as ObjectKinds[K])
    if (shown.instrument !== parents.instrument) {
      await deps.store.putObject(account.id, 'instrument', shown.instrument)
    }
    if (shown.payment !== undefined && shown.payment !== parents.payment) {
      await deps.store.putObject(account.id, 'payment', shown.payment)
    }
  }
  const snapshot = (value: MovementKinds[K], of: MovementParents) =>
    ({ ...of, [movement.kind]: value }) as EventObjects

  if (outcome.status === 'pending') {
    const pending = withChanges(references)
    const shown = movement.show(context, pending, parents)
    const answer = answerLater(context, outcome, {
      task: 'movement-answer',
      kind: movement.kind,
      chargeId: parents.charge.id,
      objectId: pending.id,
    })
    await atomically(context, async () => {
      await put(pending, shown)
      await deps.recordEvent(
        account.id,
        `${movement.kind}.pending`,
        pending.id,
        snapshot(pending, shown),
        [answer],
      )
    })
    return pending
  }
  if (outcome.status === 'failed') {
    const { code, description, message } = failureOf(outcome)
    const failed = withChanges({
      ...references,
      status: 'error',
      failure_code: code,
      failure_description: description,
      ...processorMessage(message),
    })
    const shown = movement.show(context, failed, parents)
    const objects = snapshot(failed, shown)
    await atomically(context, async () => {
      await put(failed, shown)
      await deps.recordEvent(account.id, `${movement.kind}.error`, failed.id, objects)
    })
    throw declined(code, description, idsOf(objects), message)
  }
  const succeeded = withChanges({ ...references, status: 'success', success: true })
  const changed = await movement.succeed(
    context,
    succeeded,
    movement.show(context, succeeded, parents),
  )
  const settlement =
    movement.settles === undefined
      ? []
      : settlementLater(context, parents.charge, movement.settles(succeeded))
  await atomically(context, async () => {
    await put(succeeded, changed)
    await deps.recordEvent(
      account.id,
      `${movement.kind}.success`,
      succeeded.id,
      snapshot(succeeded, changed),
      settlement,
    )
    await movement.afterSuccess?.(context, succeeded, changed)
  })
  return succeeded
}

/** The 402 metadata: the failed object's id and its parents'. */
function idsOf(objects: EventObjects): Record<string, string> {
  const ids: Record<string, string> = {}
  for (const [kind, object] of Object.entries(objects)) {
    if (object != null) ids[kind] = object.id
  }
  return ids
}
