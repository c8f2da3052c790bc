import { closestName } from '@chargekit/errors'
import * as z from 'zod/v4'
import { WebhooksError } from './errors'

/**
 * `options` checked against `schema`, whose messages say what each option must be: an
 * `invalid_configuration` WebhooksError naming the first bad option (its dotted path), what was
 * expected and what was given, or an unknown option with the likeliest intended one. Options
 * listed in `secret` are never echoed back: they hold signing keys.
 */
export function checkOptions<Schema extends z.ZodType>(
  where: string,
  schema: Schema,
  options: unknown,
  secret: ReadonlySet<string> = new Set(),
): z.output<Schema> {
  const result = schema.safeParse(options ?? {})
  if (result.success) return result.data
  const [issue] = result.error.issues
  if (issue === undefined) throw configurationError(`${where}: invalid options.`)
  if (issue.code === 'unrecognized_keys') {
    const [key = ''] = issue.keys
    const known = knownKeys(schema, issue.path)
    const intended = closestName(key, known)
    throw configurationError(
      `${where}: unknown option ${[...issue.path.map(String), key].join('.')}${intended === undefined ? '' : ` (did you mean ${intended}?)`}; the options are ${known.join(', ')}.`,
    )
  }
  const path = issue.path.map(String).join('.')
  if (secret.has(String(issue.path[0])))
    throw configurationError(`${where}: ${path} ${issue.message}.`)
  const given = issue.path.reduce<unknown>(
    (value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey],
    options,
  )
  throw configurationError(`${where}: ${path} ${issue.message}; got ${describe(given)}.`)
}

/** An object whose `names` are all functions: a client, a store, a handler. */
export function withMethods(names: readonly string[], expected: string) {
  return z.custom<object>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function'),
    { error: expected },
  )
}

function configurationError(message: string) {
  return new WebhooksError('invalid_configuration', message)
}

function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: unknown = schema
  for (const key of path) {
    const shape = (current as { shape?: Record<string, z.ZodType> }).shape
    current = shape?.[String(key)]
    while (current instanceof z.ZodOptional) current = current.unwrap()
  }
  return Object.keys((current as { shape?: object }).shape ?? {})
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object' && value !== null) return 'an object'
  return String(value)
}
