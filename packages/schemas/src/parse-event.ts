import type * as z from 'zod/v4'
import { compileSchema } from './compiled-schema'
import type { Event } from './event'
import { eventSchema, knownEventSchemas } from './event'
import { type EventType, isEventType } from './event-types'
import { SchemaValidationError } from './schema-validation-error'

export type SafeParseEventResult =
  | { success: true; data: Event }
  | { success: false; error: SchemaValidationError }

// Receivers validate every event, so parseEvent uses zod's generated validators where this zod
// has them: about 3x faster than the interpreter on a full event (bench/schemas). A failing input
// falls back to the interpreter, so issues are identical. Compiled lazily, per type actually seen.
const compiledSchemas = new Map<EventType | undefined, z.ZodType>()

function schemaFor(type: EventType | undefined): z.ZodType {
  let schema = compiledSchemas.get(type)
  if (schema === undefined) {
    schema = compileSchema(type === undefined ? eventSchema : knownEventSchemas[type])
    compiledSchemas.set(type, schema)
  }
  return schema
}

/**
 * Validates a full-form event (already JSON-parsed). A known type is checked against its own
 * schema, so `payment.success` must carry a payment; an unknown type is checked as a generic
 * event and returned as an `UnknownEvent`, so newer service versions do not break receivers.
 */
export function safeParseEvent(json: unknown): SafeParseEventResult {
  const type =
    typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined
  const result = schemaFor(isEventType(type) ? type : undefined).safeParse(json)
  if (result.success) return { success: true, data: result.data as Event }
  return { success: false, error: new SchemaValidationError('event', result.error) }
}

/** Like {@link safeParseEvent}, but throws the `SchemaValidationError`. */
export function parseEvent(json: unknown): Event {
  const result = safeParseEvent(json)
  if (!result.success) throw result.error
  return result.data
}
