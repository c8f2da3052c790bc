import {
  type Event,
  formatZodIssues,
  type ListEnvelope,
  listEnvelopeSchema,
  safeParseEvent,
} from '@chargekit/schemas'
import * as z from 'zod'

export type ValidationResult<T> =
  | { success: true; data: T }
  | { success: false; issues: Record<string, string[]> }

/** Checks a parsed JSON body against what an endpoint promises; `name` goes into messages. */
export interface ResponseValidator<T> {
  readonly name: string
  validate(json: unknown): ValidationResult<T>
}

/** A validator from a `@chargekit/schemas` schema (loose: unknown fields are kept). */
export function schemaValidator<Schema extends z.ZodType>(
  name: string,
  schema: Schema,
): ResponseValidator<z.output<Schema>> {
  return {
    name,
    validate(json) {
      const result = schema.safeParse(json)
      return result.success
        ? { success: true, data: result.data }
        : { success: false, issues: formatZodIssues(result.error) }
    },
  }
}

/** Events narrow by `type`: known types are checked against their own schema. */
export const eventValidator: ResponseValidator<Event> = {
  name: 'event',
  validate(json) {
    const result = safeParseEvent(json)
    return result.success
      ? { success: true, data: result.data }
      : { success: false, issues: result.error.parameters }
  },
}

// The envelope is checked once with its items left open; each item then goes through the item
// validator, so lists of events narrow per item exactly like a single event does.
const envelopeSchema = /* @__PURE__ */ listEnvelopeSchema(z.unknown())

/** A list page (DESIGN §4 envelope) whose every item passes `item`. */
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
