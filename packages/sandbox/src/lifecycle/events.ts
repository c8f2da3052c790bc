// Events: how a step records what happened, together with the deliveries and timed work it
// starts, in one write.

import {
  type Charge,
  type Dispute,
  type EventType,
  eventTypeLabel,
  type Reversal,
  type Settlement,
} from '@chargekit/schemas'
import { newId } from '../ids'
import type {
  InstrumentRecord,
  ObjectFilter,
  ObjectKind,
  ObjectKinds,
  PaymentRecord,
  RefundRecord,
  StoredEvent,
} from '../storage/records'
import type { SandboxStore } from '../storage/sandbox-store'
import type { NewWork } from '../storage/work-queue'
import type { LaterWork } from './later-tasks'

/**
 * The objects an event is about: its own object and every parent, as they stand now. The other
 * objects of the transaction are added by the recorder.
 */
export interface EventObjects {
  charge: Charge
  instrument?: InstrumentRecord | null
  payment?: PaymentRecord | null
  refund?: RefundRecord | null
  reversal?: Reversal | null
  dispute?: Dispute | null
  settlement?: Settlement | null
}

/**
 * Records an event, and with it (in the same write) the timed work it starts: its delivery, and
 * `later` lifecycle work such as a processor's answer to the step the event reports.
 */
export type RecordEvent = (
  accountId: string,
  type: EventType,
  objectId: string,
  objects: EventObjects,
  later?: readonly LaterWork[],
) => Promise<StoredEvent>

const noRetries: readonly never[] = Object.freeze([])

/**
 * Records events in the full form, which carries every object of the transaction as it stood at
 * that moment (see {@link transactionObjects}). Events are not delivered
 * (`delivery_status: 'none'`) when `deliver` is off or the charge has no `events_url`; the others
 * are stored with their `delivery` work. `later` work is due `afterMs × timeScale` from now.
 */
export function createEventRecorder(options: {
  store: SandboxStore
  now(): Date
  timeScale: number
  deliver: boolean
  delivery(accountId: string, event: StoredEvent): NewWork
}): RecordEvent {
  return async (accountId, type, objectId, objects, later = []) => {
    const createdAt = options.now().toISOString()
    const toDeliver = options.deliver && objects.charge.events_url !== ''
    const carried = await transactionObjects(options.store, accountId, objects)
    const event: StoredEvent = {
      id: newId('ev'),
      created_at: createdAt,
      object_id: objectId,
      result_status: 0,
      retries_log: noRetries,
      type,
      type_label: eventTypeLabel(type),
      ...carried,
      dismissed_at: null,
      delivery_status: toDeliver ? 'pending' : 'none',
      // The first attempt is due at once.
      next_attempt_at: toDeliver ? createdAt : null,
    }
    const now = Date.parse(createdAt)
    const work: NewWork[] = later.map(({ task, afterMs }) => ({
      kind: 'lifecycle',
      accountId,
      payload: task,
      dueAt: now + afterMs * options.timeScale,
    }))
    if (toDeliver) work.push(options.delivery(accountId, event))
    await options.store.addEvent(accountId, event, work)
    return event
  }
}

type CarriedObjects = Pick<
  StoredEvent,
  'charge' | 'instrument' | 'payment' | 'refund' | 'reversal' | 'dispute' | 'settlement'
>

/**
 * The given objects, and for every kind not given the transaction's latest object of that kind,
 * looked up under the object it belongs to: the charge's instrument, that instrument's payment
 * and reversal, that payment's refund and dispute. So a `dispute.created` after a refund carries
 * the refund, and a `payment.settled` the instrument. A settlement is only carried by the events
 * of its batch. Called under the charge's lock, so nothing changes while it reads.
 */
async function transactionObjects(
  store: SandboxStore,
  accountId: string,
  given: EventObjects,
): Promise<CarriedObjects> {
  const latest = async <K extends ObjectKind>(
    kind: K,
    filter: ObjectFilter,
  ): Promise<ObjectKinds[K] | null> => {
    const page = await store.listObjects(accountId, kind, filter, { offset: 0, limit: 1 })
    return page.items[0] ?? null
  }
  const { charge } = given
  const instrument = given.instrument ?? (await latest('instrument', { charge: charge.id }))
  const payment =
    given.payment ??
    (instrument === null ? null : await latest('payment', { instrument: instrument.id }))
  return {
    charge,
    instrument,
    payment,
    refund:
      given.refund ?? (payment === null ? null : await latest('refund', { payment: payment.id })),
    reversal:
      given.reversal ??
      (instrument === null ? null : await latest('reversal', { instrument: instrument.id })),
    dispute:
      given.dispute ?? (payment === null ? null : await latest('dispute', { payment: payment.id })),
    settlement: given.settlement ?? null,
  }
}
