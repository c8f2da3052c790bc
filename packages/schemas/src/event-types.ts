import * as z from 'zod/v4'

/** The object an event is about. */
export type EventFamily = 'charge' | 'instrument' | 'payment' | 'refund' | 'reversal' | 'dispute'

export interface EventTypeInfo {
  /** The human-readable name of the event kind, also sent as `type_label`. */
  readonly label: string
  readonly family: EventFamily
}

/** Every event type the service emits, with its label and object family. */
export const eventTypes = {
  'charge.created': { label: 'Charge created', family: 'charge' },
  'charge.confirmed': { label: 'Charge confirmed', family: 'charge' },
  'charge.error': { label: 'Charge error', family: 'charge' },
  'instrument.created': { label: 'Instrument created', family: 'instrument' },
  'instrument.authorized': { label: 'Instrument authorized', family: 'instrument' },
  'instrument.pending': { label: 'Instrument pending', family: 'instrument' },
  'instrument.invalid': { label: 'Instrument invalid', family: 'instrument' },
  'instrument.risk': { label: 'Instrument risk', family: 'instrument' },
  'instrument.settled': { label: 'Instrument settled', family: 'instrument' },
  'payment.error': { label: 'Payment error', family: 'payment' },
  'payment.pending': { label: 'Payment pending', family: 'payment' },
  'payment.success': { label: 'Payment success', family: 'payment' },
  'payment.settled': { label: 'Payment settled', family: 'payment' },
  'refund.error': { label: 'Refund error', family: 'refund' },
  'refund.pending': { label: 'Refund pending', family: 'refund' },
  'refund.success': { label: 'Refund success', family: 'refund' },
  'refund.settled': { label: 'Refund settled', family: 'refund' },
  'reversal.success': { label: 'Reversal success', family: 'reversal' },
  'reversal.pending': { label: 'Reversal pending', family: 'reversal' },
  'reversal.error': { label: 'Reversal error', family: 'reversal' },
  'dispute.created': { label: 'Dispute created', family: 'dispute' },
  'dispute.settled': { label: 'Dispute settled', family: 'dispute' },
} as const satisfies Readonly<Record<string, EventTypeInfo>>

export type EventType = keyof typeof eventTypes

/** The family of event type `T`: `EventFamilyOf<'payment.success'>` is `'payment'`. */
export type EventFamilyOf<T extends EventType> = (typeof eventTypes)[T]['family']

/** All event types, in lifecycle order. */
export const eventTypeList = Object.keys(eventTypes) as readonly EventType[]

/** Whether `value` is one of the known event types. */
export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.hasOwn(eventTypes, value)
}

/** The human-readable label of a known type ("Payment success"); undefined for unknown types. */
export function eventTypeLabel(type: EventType): string
export function eventTypeLabel(type: string): string | undefined
export function eventTypeLabel(type: string): string | undefined {
  return isEventType(type) ? eventTypes[type].label : undefined
}

/** A known event type, e.g. as a filter of the event list. */
export const eventTypeSchema = z.enum(eventTypeList as [EventType, ...EventType[]])
