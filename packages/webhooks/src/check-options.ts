import { readOptions } from '@chargekit/schemas'
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
  const read = readOptions(schema, options, { secret })
  if (read.success) return read.data
  const { problem } = read
  if (problem.kind === 'unknown') {
    throw configurationError(
      `${where}: unknown option ${[...problem.path, problem.key].join('.')}${problem.intended === undefined ? '' : ` (did you mean ${problem.intended}?)`}; the options are ${problem.known.join(', ')}.`,
    )
  }
  const path = problem.path.join('.')
  if (problem.given === undefined) throw configurationError(`${where}: ${path} ${problem.message}.`)
  throw configurationError(`${where}: ${path} ${problem.message}; got ${problem.given}.`)
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
