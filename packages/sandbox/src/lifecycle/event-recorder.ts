import {
  type Charge,
  type Dispute,
  type EventType,
  eventTypeLabel,
  type Instrument,
  type Payment,
  type Refund,
  type Reversal,
  type Settlement,
} from '@chargekit/schemas'
import { newId } from '../ids'
import type { StoredEvent } from '../storage/records'
import type { SandboxStore } from '../storage/sandbox-store'

/** The objects an event snapshots: its own object and every parent, as they stand now. */
export interface EventObjects {
  charge: Charge
  instrument?: Instrument | null
  payment?: Payment | null
  refund?: Refund | null
  reversal?: Reversal | null
  dispute?: Dispute | null
  settlement?: Settlement | null
}

export type RecordEvent = (
  accountId: string,
  type: EventType,
  objectId: string,
  objects: EventObjects,
) => Promise<StoredEvent>

const noRetries: readonly never[] = Object.freeze([])

/**
 * Records events in the spec's full form. `onRecorded` runs after the event is stored (the
 * delivery engine is told there). Events are not delivered (`delivery_status: 'none'`) when
 * `deliver` is off or the charge has no `events_url`.
 */
export function createEventRecorder(options: {
  store: SandboxStore
  now(): Date
  deliver: boolean
  onRecorded(accountId: string, event: StoredEvent): void
}): RecordEvent {
  return async (accountId, type, objectId, objects) => {
    const createdAt = options.now().toISOString()
    const toDeliver = options.deliver && objects.charge.events_url !== ''
    const event: StoredEvent = {
      id: newId('ev'),
      created_at: createdAt,
      object_id: objectId,
      result_status: 0,
      retries_log: noRetries,
      type,
      type_label: eventTypeLabel(type),
      charge: objects.charge,
      instrument: objects.instrument ?? null,
      payment: objects.payment ?? null,
      refund: objects.refund ?? null,
      reversal: objects.reversal ?? null,
      dispute: objects.dispute ?? null,
      settlement: objects.settlement ?? null,
      dismissed_at: null,
      delivery_status: toDeliver ? 'pending' : 'none',
      // The first attempt is due at once (it may wait behind the charge's earlier events).
      next_attempt_at: toDeliver ? createdAt : null,
    }
    await options.store.addEvent(accountId, event)
    options.onRecorded(accountId, event)
    return event
  }
}
