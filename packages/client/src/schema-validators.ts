import type { Event, ListEnvelope } from '@chargekit/schemas'
import {
  checkShape,
  eventShapes,
  genericEventShape,
  listEnvelopeShape,
  type Shape,
} from '@chargekit/schemas/response-checks'
import type { ResponseValidator, ValidationResult } from './response-validator'

/** `json` checked against `shape`, and returned as it is when it passes. */
function validateWith<T>(shape: Shape<T>, json: unknown): ValidationResult<T> {
  const result = checkShape(shape, json)
  return result.success ? { success: true, data: json as T } : result
}

/**
 * A validator from a shape of `@chargekit/schemas/response-checks`: the response schemas compiled
 * into plain checks, so validating costs no zod in the bundle. A valid body is returned as
 * `JSON.parse` made it: the response schemas are loose (unknown fields kept) and transform
 * nothing. Only a failing body is walked again, for its issues.
 */
export function shapeValidator<T>(name: string, shape: Shape<T>): ResponseValidator<T> {
  return { name, validate: (json) => validateWith(shape, json) }
}

/**
 * Events narrow by `type`: a known type is checked against its own shape (so `payment.success`
 * must carry a payment), any other type as a generic event, so newer service versions do not
 * break the client.
 */
export const eventValidator: ResponseValidator<Event> = {
  name: 'event',
  validate(json) {
    const type =
      typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined
    const shape: Shape =
      typeof type === 'string' && Object.hasOwn(eventShapes, type)
        ? eventShapes[type as keyof typeof eventShapes]
        : genericEventShape
    // A generic event with a type this version does not know is an `UnknownEvent`.
    return validateWith(shape as Shape<Event>, json)
  },
}

/**
 * A list page (`{ collection, pagination, filters }`) whose every item passes `item`. The
 * envelope is checked with its items left open; each item then goes through the item validator,
 * so lists of events narrow per item exactly like a single event does.
 */
export function listValidator<T>(item: ResponseValidator<T>): ResponseValidator<ListEnvelope<T>> {
  return {
    name: `${item.name} list`,
    validate(json) {
      const envelope = checkShape(listEnvelopeShape, json)
      if (!envelope.success) return envelope
      const page = json as ListEnvelope<unknown>
      const issues: Record<string, string[]> = {}
      for (const [index, element] of page.collection.entries()) {
        const result = item.validate(element)
        if (result.success) continue
        for (const [path, messages] of Object.entries(result.issues)) {
          issues[`collection.${index}.${path}`] = messages
        }
      }
      if (Object.keys(issues).length > 0) return { success: false, issues }
      return { success: true, data: page as ListEnvelope<T> }
    },
  }
}
