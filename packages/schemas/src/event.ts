import * as z from 'zod'
import { chargeSchema } from './charge'
import { disputeSchema } from './dispute'
import type { EventFamily, EventFamilyOf, EventType } from './event-types'
import { eventTypeList, eventTypes } from './event-types'
import { instrumentSchema } from './instrument'
import { paymentSchema } from './payment'
import { refundSchema } from './refund'
import { resultStatusSchema, retryLogEntrySchema } from './retry-log-entry'
import { reversalSchema } from './reversal'
import { settlementSchema } from './settlement'
import { deliveryStatusSchema, openEnum } from './statuses'
import { timestampSchema } from './timestamp'

/**
 * The full form of an event (returned by GET /v2/events/{id}) for any type, known or not. It
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

/** An event of any type string, objects all optional: what {@link eventSchema} yields. */
export type GenericEvent = z.infer<typeof eventSchema>

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

type FamilyObjects = typeof familyObjects
type EventShape = typeof eventSchema.shape
type FamilyShape<T extends EventType> = FamilyObjects[EventFamilyOf<T>]

/** The schema type of one known event type: its `type` literal and its family's objects required. */
export type KnownEventSchema<T extends EventType> = z.ZodObject<
  Omit<EventShape, 'type' | keyof FamilyShape<T>> & { type: z.ZodLiteral<T> } & FamilyShape<T>,
  z.core.$loose
>

/** Any event of a known type; narrows by `type`. */
export type KnownEvent = { [T in EventType]: z.infer<KnownEventSchema<T>> }[EventType]

/**
 * The event of a known type: `EventOf<'payment.success'>` has a non-null `payment`. Defined by
 * extraction from the union so that, in generic code, `EventOf<T>` is still a `KnownEvent`.
 */
export type EventOf<T extends EventType> = Extract<KnownEvent, { type: T }>

declare const unknownEventType: unique symbol
/**
 * A type string this version of chargekit does not know. Branded so a known event is never
 * taken for an unknown one (TypeScript would otherwise merge the union into `UnknownEvent`).
 */
export type UnknownEventType = string & { readonly [unknownEventType]: true }

/** An event whose type is newer than this package: parsed generically instead of rejected. */
export type UnknownEvent = z.infer<
  z.ZodObject<Omit<EventShape, 'type'> & { type: z.ZodType<UnknownEventType> }, z.core.$loose>
>

/**
 * What `parseEvent` returns: a known event or an unknown one. TypeScript cannot exclude a
 * `string`-typed member when `event.type` is compared with a literal, so call `isKnownEvent`
 * (or `isEventOfType`) first; a `KnownEvent` then narrows by `type`.
 */
export type Event = KnownEvent | UnknownEvent

/** The schema for each known type: the type literal plus the objects its family carries. */
export const knownEventSchemas = Object.fromEntries(
  eventTypeList.map((type) => [
    type,
    eventSchema.extend({ type: z.literal(type), ...familyObjects[eventTypes[type].family] }),
  ]),
) as unknown as { readonly [T in EventType]: KnownEventSchema<T> }
