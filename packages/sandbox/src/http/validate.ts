import { formatZodIssues } from '@chargekit/schemas'
import * as z from 'zod'
import { invalidBody, invalidParameters } from './api-problem'
import { bodyWarnings } from './integration-warnings'
import { readLenientFields } from './lenient-fields'

/** Body schema of the endpoints that take no parameters: `{}` or no body. */
export const noParametersSchema = z.object({})

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
 * Validates a request body against a request schema of @chargekit/schemas. The body must be an
 * object (an absent body counts as `{}`); it is first read as leniently as the production
 * service reads it ({@link readLenientFields}: unknown fields ignored, numbers as strings, null
 * for absent), each lenience recorded as an integration warning of the request, and then held to
 * the schema. `moreProblems` may add what only the endpoint can judge (an account's channels).
 * Every problem is reported at once as 400 01.01.0000 `parameters`.
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
  const warnings = bodyWarnings(body)
  const problems = new Problems()
  const fields = readLenientFields(schema, value as Record<string, unknown>, {
    warn: (build) => warnings.addLazily(build),
    problem: (field, message) => problems.add(field, message),
  })
  // A field the lenient reading refused already has the better message ("Expected a number,
  // such as 20.5…"); the schema's own ("expected number, received string") would only confuse.
  const judged = new Set(Object.keys(problems.toRecord()))
  const result = schema.safeParse(fields)
  if (!result.success) {
    for (const [field, messages] of Object.entries(formatZodIssues(result.error))) {
      if (!judged.has(field)) for (const message of messages) problems.add(field, message)
    }
  }
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
