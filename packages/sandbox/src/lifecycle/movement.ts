// The machinery captures, refunds and reversals share: each is created pending and confirmed or
// failed by the processor, at once or later; what differs between them is a `Movement`.

import type { Charge, Reversal } from '@chargekit/schemas'
import type { AwaitingProcessorOutcome, FinalOutcome } from '../processors/outcome'
import type { InstrumentRecord, ObjectKinds, PaymentRecord, RefundRecord } from '../storage/records'
import {
  atomically,
  failureOf,
  processorMessage,
  processorOf,
  revise,
  type StepContext,
} from './context'
import type { EventObjects } from './events'
import { answerLater, type MovementKind } from './later-tasks'
import { declined } from './lifecycle-error'
import { transactionExternalIds } from './objects'
import { type SettlementSelection, settlementLater } from './settlements'

/** Each money movement's stored object. */
export interface MovementKinds extends Record<MovementKind, unknown> {
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
    const failure = failureOf(outcome)
    const failed = withChanges({
      ...references,
      status: 'error',
      failure_code: failure.code,
      failure_description: failure.description,
      ...processorMessage(failure.message),
    })
    const shown = movement.show(context, failed, parents)
    const objects = snapshot(failed, shown)
    await atomically(context, async () => {
      await put(failed, shown)
      await deps.recordEvent(account.id, `${movement.kind}.error`, failed.id, objects)
    })
    throw declined(failure, idsOf(objects))
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
