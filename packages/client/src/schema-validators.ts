import {
  compiledCheck,
  type Event,
  eventSchema,
  formatZodIssues,
  isEventType,
  knownEventSchemas,
  type ListEnvelope,
  listEnvelopeSchema,
  safeParseEvent,
} from '@chargekit/schemas'
import * as z from 'zod/v4'
import type { ResponseValidator } from './response-validator'

/**
 * A validator from a `@chargekit/schemas` schema. A valid body is returned as `JSON.parse` made
 * it: the response schemas are loose (unknown fields kept) and transform nothing, so zod's copy
 * would be equal, only slower. The constraint makes a schema whose output type differs from its
 * input (a transform) a compile error here. Only a failing body is parsed again, for its issues.
 */
export function schemaValidator<Schema extends z.ZodType<z.input<Schema>>>(
  name: string,
  schema: Schema,
): ResponseValidator<z.output<Schema>> {
  const check = compiledCheck(schema)
  return {
    name,
    validate(json) {
      if (check(json)) return { success: true, data: json as z.output<Schema> }
      const result = schema.safeParse(json)
      return result.success
        ? { success: true, data: result.data }
        : { success: false, issues: formatZodIssues(result.error) }
    },
  }
}

// One check per event type, picked the way `safeParseEvent` picks its schema: a known type is
// checked against its own schema (so `payment.success` must carry a payment), any other type as
// a generic event, so newer service versions do not break the client.
const eventChecks = new Map<string, (json: unknown) => boolean>()
const genericEventCheck = /* @__PURE__ */ compiledCheck(eventSchema)

function eventCheckFor(type: unknown): (json: unknown) => boolean {
  if (!isEventType(type)) return genericEventCheck
  let check = eventChecks.get(type)
  if (check === undefined) {
    check = compiledCheck(knownEventSchemas[type])
    eventChecks.set(type, check)
  }
  return check
}

/** Events narrow by `type`; a failing event gets `safeParseEvent`'s issues. */
export const eventValidator: ResponseValidator<Event> = {
  name: 'event',
  validate(json) {
    const type =
      typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined
    if (eventCheckFor(type)(json)) return { success: true, data: json as Event }
    const result = safeParseEvent(json)
    return result.success
      ? { success: true, data: result.data }
      : { success: false, issues: result.error.parameters }
  },
}

// The envelope is checked once with its items left open; each item then goes through the item
// validator, so lists of events narrow per item exactly like a single event does.
const envelopeSchema = /* @__PURE__ */ listEnvelopeSchema(z.unknown())

/** A list page (`{ collection, pagination, filters }`) whose every item passes `item`. */
export function listValidator<T>(item: ResponseValidator<T>): ResponseValidator<ListEnvelope<T>> {
  return {
    name: `${item.name} list`,
    validate(json) {
      const envelope = envelopeSchema.safeParse(json)
      if (!envelope.success) return { success: false, issues: formatZodIssues(envelope.error) }
      const issues: Record<string, string[]> = {}
      const collection: T[] = []
      envelope.data.collection.forEach((element, index) => {
        const result = item.validate(element)
        if (result.success) collection.push(result.data)
        else {
          for (const [path, messages] of Object.entries(result.issues)) {
            issues[`collection.${index}.${path}`] = messages
          }
        }
      })
      if (Object.keys(issues).length > 0) return { success: false, issues }
      return { success: true, data: { ...envelope.data, collection } }
    },
  }
}
