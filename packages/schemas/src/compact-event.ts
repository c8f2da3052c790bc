import * as z from 'zod/v4'
import { amountSchema } from './amount'
import { withAmountsInMinorUnits } from './amount-precision'
import type { Charge } from './charge'
import { currencySchema } from './currency'
import { deliveredEventIdSchema, deliveredEventTypeSchema } from './delivery'
import { type EventFamily, eventTypes, isEventType } from './event-types'
import type { Instrument } from './instrument'
import { type ChargeMetadata, chargeMetadataSchema } from './metadata'
import type { Payment } from './payment'
import { type RequestLog, requestLogSchema } from './request-log'

/** The charge of a compact event: its payment method under either name, amount and currency. */
const compactChargeSchema = withAmountsInMinorUnits(
  z
    .looseObject({
      id: z.string(),
      // The payment method is `charge.type`, "also called charge_type": either name is read.
      type: z.string().optional(),
      charge_type: z.string().optional(),
      amount: amountSchema,
      currency: currencySchema,
      metadata: chargeMetadataSchema,
    })
    .refine((charge) => charge.type !== undefined || charge.charge_type !== undefined, {
      error: 'Required: expected the payment method as `type` or `charge_type` (a string)',
    }),
  ['amount'],
)

/**
 * The compact form of an event, as delivered. `instrument.id` and `instrument.failure_description`
 * are on every event (null while the charge has no instrument); `request_log`, `recurring` and
 * `captured_on_creation` on instrument and payment events; `payment.id` on payment events.
 */
export const compactEventSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  charge: compactChargeSchema,
  instrument: z
    .looseObject({
      id: z.string().nullable(),
      failure_description: z.string().nullable(),
      request_log: requestLogSchema.optional(),
      recurring: z.boolean().optional(),
      captured_on_creation: z.boolean().optional(),
    })
    .nullable()
    .optional(),
  payment: z.looseObject({ id: z.string() }).nullable().optional(),
})

/** The compact form of an event, as delivered to the merchant's `events_url`. */
export interface CompactEvent {
  /** The event's id: fetch the full event with it. */
  id: string
  /** The event type, such as `payment.success`. */
  type: string
  /** The charge: its id, payment method, amount, currency and metadata. */
  charge: {
    id: string
    /** The payment method; also sent as `charge_type`. */
    type?: string | undefined
    charge_type?: string | undefined
    amount: number
    currency: string
    /** As the charge has it: an object, or a string when the charge was created with one. */
    metadata: ChargeMetadata
  }
  /** The instrument (ids null while the charge has none); details on instrument and payment events. */
  instrument?:
    | {
        id: string | null
        failure_description: string | null
        request_log?: RequestLog | undefined
        recurring?: boolean | undefined
        captured_on_creation?: boolean | undefined
      }
    | null
    | undefined
  /** The payment, on payment events. */
  payment?: { id: string } | null | undefined
}

/**
 * The JSON body of a delivery to the merchant's `events_url`: the compact form. Only `id` and
 * `type` are required, so a body that just names the event (a hand-written sender, an older
 * sandbox) still reads; the rest is checked when present. `id` and `type` are checked as a
 * receiver checks them before fetching the event.
 */
export const deliveryPayloadSchema = compactEventSchema.partial().extend({
  id: deliveredEventIdSchema,
  type: deliveredEventTypeSchema,
})

/** The JSON body of a delivery: the compact form, of which only `id` and `type` are required. */
export interface DeliveryPayload {
  /** The event's id: fetch the full event with it. */
  id: string
  /** The event type, such as `payment.success`. */
  type: string
  charge?: CompactEvent['charge'] | undefined
  instrument?: CompactEvent['instrument']
  payment?: CompactEvent['payment']
}

/** What {@link toCompactEvent} reads: a full-form event, as stored or as fetched. */
export interface CompactEventSource {
  id: string
  type: string
  charge: Pick<Charge, 'id' | 'charge_type' | 'amount' | 'currency' | 'metadata'>
  instrument?:
    | Pick<
        Instrument,
        'id' | 'failure_description' | 'request_log' | 'recurring' | 'captured_on_creation'
      >
    | null
    | undefined
  payment?: Pick<Payment, 'id'> | null | undefined
}

// Which families carry the instrument's request log and options, and which the payment id.
const withInstrumentDetails: ReadonlySet<EventFamily> = new Set(['instrument', 'payment'])

/**
 * The compact form of a full-form event: what a delivery's body carries. An event of a type
 * this package does not know gets the fields every event has.
 */
export function toCompactEvent(event: CompactEventSource): CompactEvent {
  const { charge, instrument, payment } = event
  const family = isEventType(event.type) ? eventTypes[event.type].family : undefined
  const detailed = family !== undefined && withInstrumentDetails.has(family)
  return {
    id: event.id,
    type: event.type,
    charge: {
      id: charge.id,
      type: charge.charge_type,
      charge_type: charge.charge_type,
      amount: charge.amount,
      currency: charge.currency,
      metadata: charge.metadata,
    },
    instrument: {
      id: instrument?.id ?? null,
      failure_description: instrument?.failure_description ?? null,
      ...(detailed && instrument != null ? instrumentDetails(instrument) : {}),
    },
    ...(family === 'payment' && payment != null ? { payment: { id: payment.id } } : {}),
  }
}

function instrumentDetails(instrument: NonNullable<CompactEventSource['instrument']>) {
  const { request_log, recurring, captured_on_creation } = instrument
  return {
    request_log: { ...request_log },
    ...(recurring === undefined ? {} : { recurring }),
    ...(captured_on_creation === undefined ? {} : { captured_on_creation }),
  }
}
