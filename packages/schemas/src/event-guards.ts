import type { Event, EventOf, KnownEvent } from './event'
import { type EventType, isEventType } from './event-types'

/** Whether a parsed event has a type this package knows; its `type` then narrows the event. */
export function isKnownEvent(event: Event): event is KnownEvent {
  return isEventType(event.type)
}

/** Whether a parsed event is of type `type`: `isEventOfType(e, 'payment.success') && e.payment.id`. */
export function isEventOfType<T extends EventType>(event: Event, type: T): event is EventOf<T> {
  return event.type === type
}
