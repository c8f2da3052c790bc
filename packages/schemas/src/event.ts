import * as z from 'zod/v4'
import { type Charge, chargeSchema } from './charge'
import { type Dispute, disputeSchema } from './dispute'
import type { EventFamily, EventFamilyOf, EventType } from './event-types'
import { eventTypeList, eventTypes } from './event-types'
import { type Instrument, instrumentSchema } from './instrument'
import { type Payment, paymentSchema } from './payment'
import { type Refund, refundSchema } from './refund'
import { type RetryLogEntry, resultStatusSchema, retryLogEntrySchema } from './retry-log-entry'
import { type Reversal, reversalSchema } from './reversal'
import { type Settlement, settlementSchema } from './settlement'
import { type DeliveryStatus, deliveryStatusSchema, type OpenEnum, openEnum } from './statuses'
import { timestampSchema } from './timestamp'

/**
 * The full form of an event (returned by `events.retrieve`) for any type, known or not. It
 * carries every object of the transaction as it stood when the event happened; objects the
 * transaction does not have yet may be null or absent. `reversal`, `dispute`, `delivery_status`
 * and `next_attempt_at` are chargekit's additions.
 */
export const eventSchema = z.looseObject({
  id: z.string(),
  created_at: timestampSchema,
  object_id: z.string(),
  result_status: resultStatusSchema,
  retries_log: z.array(retryLogEntrySchema),
  type: z.string(),
  type_label: z.string(),
  charge: chargeSchema.nullable().optional(),
  instrument: instrumentSchema.nullable().optional(),
  payment: paymentSchema.nullable().optional(),
  refund: refundSchema.nullable().optional(),
  reversal: reversalSchema.nullable().optional(),
  dispute: disputeSchema.nullable().optional(),
  settlement: settlementSchema.nullable().optional(),
  dismissed_at: timestampSchema.nullable(),
  delivery_status: openEnum(deliveryStatusSchema).optional(),
  next_attempt_at: timestampSchema.nullable().optional(),
})

/** What every event carries, whatever its type. */
interface EventFields {
  /** The event's id (`ev_…`), the same on every delivery attempt. */
  id: string
  /** When the event happened. */
  created_at: string
  /** The id of the object the event is about. */
  object_id: string
  /** The HTTP status of the latest delivery attempt; 0 for no response. */
  result_status: number
  /** Each delivery retry, newest first. */
  retries_log: RetryLogEntry[]
  /** The type for people, such as "Payment success". */
  type_label: string
  /** The charge as it stood when the event happened. */
  charge?: Charge | null | undefined
  /** The instrument as it stood, when the transaction had one. */
  instrument?: Instrument | null | undefined
  /** The payment as it stood, when the transaction had one. */
  payment?: Payment | null | undefined
  /** The refund the event is about, for refund events. */
  refund?: Refund | null | undefined
  /** The reversal the event is about, for reversal events. */
  reversal?: Reversal | null | undefined
  /** The dispute the event is about, for dispute events. */
  dispute?: Dispute | null | undefined
  /** The settlement batch, for `.settled` events. */
  settlement?: Settlement | null | undefined
  /** When the merchant dismissed the event's deliveries; null otherwise. */
  dismissed_at: string | null
  /** Where the event's delivery stands: `pending`, `delivered`, `failing`, `exhausted` or `none`. */
  delivery_status?: OpenEnum<DeliveryStatus> | undefined
  /** When the next delivery attempt is due; null when none is. */
  next_attempt_at?: string | null | undefined
}

/** An event of any type string, objects all optional: what {@link eventSchema} yields. */
export interface GenericEvent extends EventFields {
  /** The event type, such as `payment.success`. */
  type: string
}

/** The event types of one family: `TypesOf<'refund'>` is `'refund.error' | 'refund.pending' | …`. */
export type EventTypesOf<F extends EventFamily> = {
  [T in EventType]: EventFamilyOf<T> extends F ? T : never
}[EventType]

/** A charge event: `charge.created`, `charge.confirmed`, `charge.error`. */
export interface ChargeEvent<T extends EventTypesOf<'charge'> = EventTypesOf<'charge'>>
  extends EventFields {
  type: T
  charge: Charge
}

/** An instrument event: the charge and the instrument are always there. */
export interface InstrumentEvent<T extends EventTypesOf<'instrument'> = EventTypesOf<'instrument'>>
  extends EventFields {
  type: T
  charge: Charge
  instrument: Instrument
}

/** A payment event: the charge, the instrument and the payment are always there. */
export interface PaymentEvent<T extends EventTypesOf<'payment'> = EventTypesOf<'payment'>>
  extends EventFields {
  type: T
  charge: Charge
  instrument: Instrument
  payment: Payment
}

/** A refund event: the refund and the payment, instrument and charge it derives from. */
export interface RefundEvent<T extends EventTypesOf<'refund'> = EventTypesOf<'refund'>>
  extends EventFields {
  type: T
  charge: Charge
  instrument: Instrument
  payment: Payment
  refund: Refund
}

/** A reversal event: the reversal and the instrument and charge it voids. */
export interface ReversalEvent<T extends EventTypesOf<'reversal'> = EventTypesOf<'reversal'>>
  extends EventFields {
  type: T
  charge: Charge
  instrument: Instrument
  reversal: Reversal
}

/** A dispute event: the dispute and the payment, instrument and charge it contests. */
export interface DisputeEvent<T extends EventTypesOf<'dispute'> = EventTypesOf<'dispute'>>
  extends EventFields {
  type: T
  charge: Charge
  instrument: Instrument
  payment: Payment
  dispute: Dispute
}

type FamilyEvent<T extends EventType> = {
  charge: ChargeEvent<Extract<T, EventTypesOf<'charge'>>>
  instrument: InstrumentEvent<Extract<T, EventTypesOf<'instrument'>>>
  payment: PaymentEvent<Extract<T, EventTypesOf<'payment'>>>
  refund: RefundEvent<Extract<T, EventTypesOf<'refund'>>>
  reversal: ReversalEvent<Extract<T, EventTypesOf<'reversal'>>>
  dispute: DisputeEvent<Extract<T, EventTypesOf<'dispute'>>>
}[EventFamilyOf<T>]

/** Any event of a known type; narrows by `type`, in `switch` and `if` alike. */
export type KnownEvent = { [T in EventType]: FamilyEvent<T> }[EventType]

/**
 * The event of a known type: `EventOf<'payment.success'>` has a non-null `payment`. Defined by
 * extraction from the union so that, in generic code, `EventOf<T>` is still a `KnownEvent`.
 */
export type EventOf<T extends EventType> = Extract<KnownEvent, { type: T }>

declare const unknownEventType: unique symbol
/**
 * A type string this version of chargekit does not know. A branded template type: no literal
 * such as `'payment.success'` matches it, so comparing `event.type` with a known type narrows
 * an {@link Event} to that known event alone.
 */
export type UnknownEventType = `${string}.${string}` & { readonly [unknownEventType]: true }

/** An event whose type is newer than this package: parsed generically instead of rejected. */
export interface UnknownEvent extends EventFields {
  type: UnknownEventType
}

/**
 * What `parseEvent` returns and handlers receive: a known event or an unknown one.
 * `switch (event.type) { case 'payment.success': … }` narrows it to `PaymentEvent<'payment.success'>`.
 */
export type Event = KnownEvent | UnknownEvent

// The objects an event of each family always carries: its own object and the parents it
// derives from (a refund event also snapshots its payment, instrument and charge).
const familyObjects = {
  charge: { charge: chargeSchema },
  instrument: { charge: chargeSchema, instrument: instrumentSchema },
  payment: { charge: chargeSchema, instrument: instrumentSchema, payment: paymentSchema },
  refund: {
    charge: chargeSchema,
    instrument: instrumentSchema,
    payment: paymentSchema,
    refund: refundSchema,
  },
  reversal: { charge: chargeSchema, instrument: instrumentSchema, reversal: reversalSchema },
  dispute: {
    charge: chargeSchema,
    instrument: instrumentSchema,
    payment: paymentSchema,
    dispute: disputeSchema,
  },
} as const satisfies Record<EventFamily, Record<string, z.ZodType>>

/** The schema for each known type: the type literal plus the objects its family carries. */
export const knownEventSchemas = Object.fromEntries(
  eventTypeList.map((type) => [
    type,
    eventSchema.extend({ type: z.literal(type), ...familyObjects[eventTypes[type].family] }),
  ]),
) as unknown as { readonly [T in EventType]: z.ZodType<EventOf<T>> }
