import { formatZodIssues } from '@chargekit/schemas'
import * as z from 'zod'
import { invalidBody, invalidParameters } from '../api-problem'

/** Body schema of the endpoints that take no parameters: `{}` or no body. */
export const noParametersSchema = z.object({})

// Keys that would reach an object's prototype if copied carelessly; refused outright.
const forbiddenKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** Field path → what was expected, gathered from several checks; a message is listed once. */
class Problems {
  // A Map, then Object.fromEntries: a "__proto__" field name stays an ordinary key.
  readonly #byField = new Map<string, string[]>()

  add(field: string, message: string): void {
    const messages = this.#byField.get(field) ?? []
    if (!messages.includes(message)) messages.push(message)
    this.#byField.set(field, messages)
  }

  addAll(problems: Record<string, readonly string[]>): void {
    for (const [field, messages] of Object.entries(problems)) {
      for (const message of messages) this.add(field, message)
    }
  }

  get size(): number {
    return this.#byField.size
  }

  toRecord(): Record<string, string[]> {
    return Object.fromEntries(this.#byField)
  }
}

/**
 * Validates a JSON body against a request schema of @chargekit/schemas. Beyond the schema:
 * the body must be an object (an absent body counts as `{}`), unknown top-level fields are
 * refused (a typo in an optional field would otherwise be silently ignored), metadata may not
 * use prototype keys, and `moreProblems` may add what only the endpoint can judge (an account's
 * channels). Every problem is reported at once as 400 01.01.0000 `parameters`.
 */
export function validateBody<Schema extends z.ZodObject>(
  schema: Schema,
  body: unknown,
  moreProblems?: (fields: Record<string, unknown>) => Record<string, readonly string[]>,
): z.output<Schema> {
  const value = body === undefined ? {} : body
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidBody('Expected a JSON object')
  }
  const fields = value as Record<string, unknown>
  const problems = new Problems()
  const known = Object.keys(schema.shape)
  const unknownField =
    known.length === 0
      ? 'Unknown field: this endpoint takes no parameters (send {} or no body)'
      : `Unknown field: expected only ${known.join(', ')}`
  for (const key of Object.keys(fields)) {
    if (!Object.hasOwn(schema.shape, key)) problems.add(key, unknownField)
  }
  const metadata = fields.metadata
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
    for (const key of Object.keys(metadata)) {
      if (forbiddenKeys.has(key))
        problems.add(
          `metadata.${key}`,
          'Expected a key that is not __proto__, constructor or prototype',
        )
    }
  }
  const result = schema.safeParse(fields)
  if (!result.success) problems.addAll(formatZodIssues(result.error))
  if (moreProblems !== undefined) problems.addAll(moreProblems(fields))
  if (problems.size > 0 || !result.success) throw invalidParameters(problems.toRecord())
  return result.data
}

/**
 * Validates a URL query (already gathered into an object) against a query schema. Unknown
 * parameters are refused like unknown body fields, naming the accepted ones (`accepted`, when
 * the URL spells them differently from the schema's keys, as `metadata[key]`).
 */
export function validateQuery<Schema extends z.ZodObject>(
  schema: Schema,
  query: Record<string, unknown>,
  accepted: readonly string[] = Object.keys(schema.shape),
): z.output<Schema> {
  const problems = new Problems()
  for (const name of Object.keys(query)) {
    if (!Object.hasOwn(schema.shape, name)) {
      problems.add(name, `Unknown query parameter: expected only ${accepted.join(', ')}`)
    }
  }
  const result = schema.safeParse(query)
  if (!result.success) problems.addAll(formatZodIssues(result.error))
  if (problems.size > 0 || !result.success) throw invalidParameters(problems.toRecord())
  return result.data
}
