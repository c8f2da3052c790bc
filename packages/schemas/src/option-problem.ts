import { closestName, describeGiven } from '@chargekit/errors'
import * as z from 'zod/v4'

/**
 * The first problem with a set of options, read the same way by every chargekit package that
 * takes options (`startSandbox`, `createWebhooks`, `createClient`…); each package words it in
 * its own error.
 *
 * - `unknown`: `key` is not an option of the object at `path`; `known` lists that object's
 *   options and `intended` is the likeliest one meant, if any.
 * - `invalid`: the option at `path` breaks its rule, which `message` (the schema's own) states;
 *   `given` describes what was passed, or is undefined for a secret option.
 */
export type OptionProblem =
  | {
      kind: 'unknown'
      path: readonly string[]
      key: string
      intended: string | undefined
      known: readonly string[]
    }
  | { kind: 'invalid'; path: readonly string[]; message: string; given: string | undefined }

export type OptionsReading<T> =
  | { success: true; data: T }
  | { success: false; problem: OptionProblem }

/**
 * `options` read with `schema` (undefined or null read as no options at all), and on failure its
 * first problem. `secret` names the top-level options whose value is never described: a
 * password, a signing key or a private key may end up in a log with the message.
 */
export function readOptions<Schema extends z.ZodType>(
  schema: Schema,
  options: unknown,
  { secret = new Set() }: { secret?: ReadonlySet<string> } = {},
): OptionsReading<z.output<Schema>> {
  const result = schema.safeParse(options ?? {})
  if (result.success) return { success: true, data: result.data }
  // A failed parse always has an issue; the first one is the one worth fixing first.
  const issue = result.error.issues[0] as z.core.$ZodIssue
  const path = issue.path.map(String)
  if (issue.code === 'unrecognized_keys') {
    const [key = ''] = issue.keys
    const known = knownKeys(schema, issue.path)
    return {
      success: false,
      problem: { kind: 'unknown', path, key, intended: closestName(key, known), known },
    }
  }
  const given = secret.has(String(issue.path[0]))
    ? undefined
    : describeGiven(
        issue.path.reduce<unknown>(
          (value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key],
          options,
        ),
      )
  return { success: false, problem: { kind: 'invalid', path, message: issue.message, given } }
}

/** The option names of the object `schema` expects at `path`, seen through `.optional()`. */
function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: unknown = schema
  for (const key of path) {
    const shape = (current as { shape?: Record<string, z.ZodType> }).shape
    current = shape?.[String(key)]
    while (current instanceof z.ZodOptional) current = current.unwrap()
  }
  return Object.keys((current as { shape?: object }).shape ?? {})
}
