import { type ParseArgsConfig, parseArgs } from 'node:util'
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
 * Parses one command's arguments with `node:util` parseArgs, turning its errors into a
 * {@link UsageError} that names the flag and what was expected, with a hint for near misses.
 */
export function parseCommandLine<const O extends OptionSpec>(
  command: string,
  argv: readonly string[],
  options: O,
) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: true })
  } catch (error) {
    throw usageErrorOf(error, command, Object.keys(options))
  }
}

function usageErrorOf(error: unknown, command: string, flags: readonly string[]): UsageError {
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

/** A whole number in a range, from a flag's text. */
export function integerFlag(
  command: string,
  flag: string,
  text: string,
  min: number,
  max: number,
): number {
  const value = Number(text)
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(
      `${flag} expects a whole number from ${min} to ${max}; got "${text}"`,
      command,
    )
  }
  return value
}

/** A positive number of seconds, returned in milliseconds. */
export function secondsFlag(command: string, flag: string, text: string): number {
  const seconds = Number(text)
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(
      `${flag} expects a number of seconds > 0, such as 10 or 0.5; got "${text}"`,
      command,
    )
  }
  return seconds * 1000
}

/** An ISO 8601 timestamp with a time zone (`2026-01-31T12:00:00Z`), as the service writes them. */
export function timestampFlag(command: string, flag: string, text: string): string {
  if (
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(text) ||
    Number.isNaN(Date.parse(text))
  ) {
    throw new UsageError(
      `${flag} expects an ISO 8601 time with a zone, such as 2026-01-31T12:00:00Z; got "${text}"`,
      command,
    )
  }
  return text
}

/** One of a fixed set of words, with a hint for near misses. */
export function choiceFlag<T extends string>(
  command: string,
  what: string,
  text: string,
  choices: readonly T[],
): T {
  const choice = choices.find((candidate) => candidate === text)
  if (choice === undefined) {
    throw new UsageError(
      `${what} expects one of ${choices.join(', ')}; got "${text}"${didYouMean(text, choices)}`,
      command,
    )
  }
  return choice
}

/** `key=value` pairs of a repeatable flag, as an object. */
export function keyValueFlag(
  command: string,
  flag: string,
  texts: readonly string[] | undefined,
): Record<string, string> | undefined {
  if (texts === undefined) return undefined
  const pairs = texts.map((text) => {
    const at = text.indexOf('=')
    if (at < 1) {
      throw new UsageError(`${flag} expects key=value, such as order=1042; got "${text}"`, command)
    }
    return [text.slice(0, at), text.slice(at + 1)] as const
  })
  return Object.fromEntries(pairs)
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
