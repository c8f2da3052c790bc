import { type ParseArgsConfig, parseArgs } from 'node:util'
import * as z from 'zod'
import { didYouMean } from './did-you-mean'
import { UsageError } from './errors'

export type OptionSpec = NonNullable<ParseArgsConfig['options']>

/** Where to reach the service and as whom: every command that calls it takes these. */
export const connectionOptions = {
  'base-url': { type: 'string' },
  'account-id': { type: 'string' },
  'private-key': { type: 'string' },
} as const satisfies OptionSpec

/** On every command. */
export const commonOptions = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpec

/**
 * The values of {@link connectionOptions} and {@link commonOptions}. The base URL is checked
 * once it is known whether it came from the flag or the environment (see `connect`).
 */
export const connectionFlags = {
  'base-url': z.string().optional(),
  'account-id': z.string().optional(),
  'private-key': z.string().optional(),
  json: z.boolean().optional(),
}

/** Flags whose value may be a credential: never repeated in an error. */
const secretFlags: ReadonlySet<string> = new Set(['private-key', 'secret'])

export interface CommandLine<Flags> {
  flags: Flags
  positionals: string[]
}

/**
 * Parses one command's arguments: their syntax with `node:util` parseArgs, then their values
 * with `schema`. Undefined when `--help` is given, whatever the other flags. Any problem is a
 * {@link UsageError} that names the flag and what it expects, with a hint for near misses.
 */
export function parseCommandLine<Schema extends z.ZodType>(
  command: string,
  argv: readonly string[],
  options: OptionSpec,
  schema: Schema,
): CommandLine<z.output<Schema>> | undefined {
  let parsed: { values: Record<string, unknown>; positionals: string[] }
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true })
  } catch (error) {
    throw syntaxErrorOf(error, command, Object.keys(options))
  }
  const { help, ...values } = parsed.values
  if (help === true) return undefined
  const result = schema.safeParse(values)
  if (!result.success) throw valueErrorOf(result.error, values, command)
  return { flags: result.data, positionals: parsed.positionals }
}

function syntaxErrorOf(error: unknown, command: string, flags: readonly string[]): UsageError {
  const { code, message } = error as { code?: string; message: string }
  const flag = /'(--?[^' =]+)/.exec(message)?.[1] ?? ''
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(
        `unknown flag ${flag}${didYouMean(
          flag,
          flags.map((name) => `--${name}`),
        )}`,
        command,
      )
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(
        message.includes('argument missing') ? `${flag} expects a value` : `${flag} takes no value`,
        command,
      )
    default:
      return new UsageError(message, command)
  }
}

/** The first problem: `--flag <what it expects>; got "<text>"`, or a rule between flags as is. */
function valueErrorOf(
  error: z.ZodError,
  values: Record<string, unknown>,
  command: string,
): UsageError {
  const [issue] = error.issues
  const [flag, index] = issue?.path ?? []
  if (issue === undefined || flag === undefined) {
    return new UsageError(issue?.message ?? 'invalid flags', command)
  }
  const given = values[String(flag)]
  const text = String(index === undefined ? given : (given as unknown[])[Number(index)])
  const got = secretFlags.has(String(flag)) ? '' : `; got ${JSON.stringify(text)}`
  const hint = issue.code === 'invalid_value' ? didYouMean(text, issue.values.map(String)) : ''
  return new UsageError(`--${String(flag)} ${issue.message}${got}${hint}`, command)
}

/** Exactly `names.length` positional arguments. */
export function expectPositionals(
  command: string,
  positionals: readonly string[],
  names: readonly string[],
): void {
  if (positionals.length < names.length) {
    throw new UsageError(`missing ${names.slice(positionals.length).join(' ')}`, command)
  }
  if (positionals.length > names.length) {
    throw new UsageError(`unexpected argument "${positionals[names.length]}"`, command)
  }
}
