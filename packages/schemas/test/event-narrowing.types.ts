/**
 * Compile-time checks of the event types, run by `tsc -p packages/schemas` (typecheck): each
 * `@ts-expect-error` fails the build if the line it guards ever stops being an error.
 */
import type { Event, EventOf, EventType, KnownEvent, Payment, UnknownEvent } from '../src/index'
import { isEventOfType, isKnownEvent } from '../src/index'

export function knownEventsNarrowByType(event: Event): string | undefined {
  if (isKnownEvent(event) && event.type === 'payment.success') {
    const payment: Payment = event.payment
    return payment.id
  }
  if (isEventOfType(event, 'refund.settled')) return event.refund.id
  return undefined
}

export function familyObjectsOnly(event: EventOf<'charge.created'>): string {
  // @ts-expect-error a charge event may have no instrument
  const instrumentId: string = event.instrument.id
  return event.charge.id + instrumentId
}

export function unknownEventsStayGeneric(event: UnknownEvent): unknown {
  // @ts-expect-error an unknown event may have no payment
  const paymentId: string = event.payment.id
  const type: string = event.type
  return [paymentId, type, event.some_new_field]
}

export function genericCodeKeepsKnownEvents<T extends EventType>(event: EventOf<T>): KnownEvent {
  return event
}

// @ts-expect-error a plain string is not an UnknownEventType: known events are never unknown ones
export const notUnknown: UnknownEvent['type'] = 'payment.success'
