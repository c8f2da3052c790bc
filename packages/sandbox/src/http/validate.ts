import { formatZodIssues } from '@chargekit/schemas'
import * as z from 'zod'
import { invalidBody, invalidParameters } from '../api-problem'

/** Body schema of the endpoints that take no parameters: `{}` or no body. */
export const noParametersSchema = z.object({})

// Keys that would reach an object's prototype if copied carelessly; refused outright.
const forbiddenKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Validates a JSON body against a request schema of @chargekit/schemas. Beyond the schema:
 * the body must be an object (an absent body counts as `{}`), unknown top-level fields are
 * refused (a typo in an optional field would otherwise be silently ignored), and metadata may
 * not use prototype keys. Every problem is reported at once as 400 01.01.0000 `parameters`.
 */
export function validateBody<Schema extends z.ZodObject>(
  schema: Schema,
  body: unknown,
): z.output<Schema> {
  const value = body === undefined ? {} : body
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidBody('Expected a JSON object')
  }
  // A Map, then Object.fromEntries: a "__proto__" field name stays an ordinary key.
  const problems = new Map<string, string[]>()
  const add = (key: string, message: string) => {
    const messages = problems.get(key) ?? []
    if (!messages.includes(message)) messages.push(message)
    problems.set(key, messages)
  }
  const known = Object.keys(schema.shape)
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(schema.shape, key)) {
      add(
        key,
        known.length === 0
          ? 'Unknown field: this endpoint takes no parameters (send {} or no body)'
          : `Unknown field: expected only ${known.join(', ')}`,
      )
    }
  }
  const metadata = (value as { metadata?: unknown }).metadata
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
    for (const key of Object.keys(metadata)) {
      if (forbiddenKeys.has(key))
        add(`metadata.${key}`, 'Expected a key that is not __proto__, constructor or prototype')
    }
  }
  const result = schema.safeParse(value)
  if (!result.success) {
    for (const [key, messages] of Object.entries(formatZodIssues(result.error))) {
      for (const message of messages) add(key, message)
    }
  }
  if (problems.size > 0 || !result.success) throw invalidParameters(Object.fromEntries(problems))
  return result.data
}

/** Validates a URL query (already gathered into an object) against a query schema. */
export function validateQuery<Schema extends z.ZodType>(
  schema: Schema,
  query: unknown,
): z.output<Schema> {
  const result = schema.safeParse(query)
  if (!result.success) throw invalidParameters(formatZodIssues(result.error))
  return result.data
}
