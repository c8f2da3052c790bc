import type {
  Charge,
  ChargeReference,
  DeliveryStatus,
  Dispute,
  Instrument,
  InstrumentReference,
  Payment,
  Refund,
  RetryLogEntry,
  Reversal,
  Settlement,
} from '@chargekit/schemas'
import type { CustomerAction } from '../processors/outcome'

/**
 * The sandbox's own records of the objects that have parents. The wire types leave the parent
 * references (and an instrument's amount) optional, since a service may answer without them;
 * every object the sandbox creates has them, so its records say so.
 */
export type InstrumentRecord = Instrument & {
  charge: ChargeReference
  amount: number
  currency: string
}
export type PaymentRecord = Payment & { charge: ChargeReference; instrument: InstrumentReference }
export type RefundRecord = Refund & { charge: string; payment: string; currency: string }

/** Every kind of object the sandbox stores, by name. Stored objects are immutable snapshots. */
export interface ObjectKinds {
  charge: Charge
  instrument: InstrumentRecord
  payment: PaymentRecord
  refund: RefundRecord
  reversal: Reversal
  dispute: Dispute
  settlement: Settlement
}

export type ObjectKind = keyof ObjectKinds

/**
 * A stored event in its full form. The objects are references to the immutable
 * snapshots current when the event happened (never copies), which keeps an event to a few
 * hundred bytes of its own; only the delivery fields and `dismissed_at` change afterwards.
 */
export interface StoredEvent {
  readonly id: string
  readonly created_at: string
  readonly object_id: string
  result_status: number
  retries_log: readonly RetryLogEntry[]
  readonly type: string
  readonly type_label: string
  readonly charge: Charge
  readonly instrument: Instrument | null
  readonly payment: Payment | null
  readonly refund: Refund | null
  readonly reversal: Reversal | null
  readonly dispute: Dispute | null
  readonly settlement: Settlement | null
  dismissed_at: string | null
  delivery_status: DeliveryStatus
  next_attempt_at: string | null
}

/** The fields of an event that change after it is recorded. */
export type EventUpdate = Partial<
  Pick<
    StoredEvent,
    'result_status' | 'retries_log' | 'dismissed_at' | 'delivery_status' | 'next_attempt_at'
  >
>

/**
 * The id a parent field holds: a plain id (a refund's `payment`, a reversal's `instrument`) or a
 * reference object (an instrument's or a payment's `charge`, a payment's `instrument`).
 */
export function parentIdOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  const id = (value as { id?: unknown } | null | undefined)?.id
  return typeof id === 'string' ? id : undefined
}

/** A page request: `offset` items skipped, at most `limit` returned. */
export interface PageRequest {
  offset: number
  limit: number
}

export interface PageResult<T> {
  items: T[]
  total: number
}

/** Narrows an object list by its parents, status or settlement; every field optional. */
export interface ObjectFilter {
  charge?: string
  instrument?: string
  payment?: string
  status?: string
  /** Only objects whose `settled_at` is null. */
  unsettled?: boolean
  /**
   * Only objects whose `metadata` has each of these values, compared as text (`3` matches
   * `"3"`, as in the event search); a null value matches nothing.
   */
  metadata?: Readonly<Record<string, string>>
}

/** The event search of `events.list`. */
export interface EventFilter {
  types?: ReadonlySet<string>
  charge?: string
  objectId?: string
  metadata?: Readonly<Record<string, string>>
  /** Inclusive bounds, as `Date#toISOString()` text (so they compare as strings). */
  createdGte?: string
  createdLte?: string
  dismissed?: boolean
  resultStatus?: number
  deliveryStatus?: DeliveryStatus
}

/**
 * An authorization waiting for the customer. An approval page (3-D Secure, PayPal) is reachable
 * without credentials, by token; an app notification or a payment reference is answered
 * through the test helpers.
 */
export interface ChallengeRecord {
  accountId: string
  instrumentId: string
  token: string
  action: CustomerAction['type']
}
