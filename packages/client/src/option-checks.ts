import { closestName, describeGiven } from '@chargekit/errors'
import type { FetchLike } from './client-options'
import { readEnvironment } from './environment'
import { ChargekitError } from './errors'

/**
 * How one option is checked, as src/option-rules.ts declares it (generated from the options'
 * zod declaration): the check function of its kind and what that function reads. Each rule
 * names its function, so a bundle carries only the checks its options use.
 */
export interface OptionRule {
  readonly check: OptionCheck
  /** What the option must be, in its message (`a function that receives one log entry`). */
  readonly expected?: string
  readonly default?: unknown
  readonly min?: number
  readonly max?: number
  /** A whole number's unit, in its message (`milliseconds`). */
  readonly unit?: string
  readonly pattern?: RegExp
  readonly minLength?: number
  /** Where a credential or address is read from when it is not given. */
  readonly variable?: string
  /** An option that is itself an object of options. */
  readonly rules?: OptionRules
}

/** Checks one option; returns it, or its default when it was not given. */
export type OptionCheck = (
  where: string,
  name: string,
  value: unknown,
  rule: OptionRule,
  fallback: unknown,
) => unknown

/** The rules of an options object, in the order its options are checked and listed. */
export type OptionRules = { readonly [name: string]: OptionRule }

/** The options once checked: defaults filled in, credentials read from the environment. */
export type CheckedOptions<Rules extends OptionRules> = {
  -readonly [Name in keyof Rules]: ReturnType<Rules[Name]['check']>
}

/**
 * Checks `given` against `rules`, option by option in their order and then for unknown keys, so
 * that of several mistakes the one reported is always the same. Only the object's own options
 * count: one inherited through its prototype is not given. `fallbacks` replace the declared
 * defaults (a call's options fall back to its client's).
 */
export function checkOptions<Rules extends OptionRules>(
  where: string,
  rules: Rules,
  given: object,
  fallbacks: Partial<Record<keyof Rules, unknown>> = {},
  prefix = '',
): CheckedOptions<Rules> {
  const own: Record<string, unknown> = { ...given }
  const checked: Record<string, unknown> = {}
  for (const [name, rule] of Object.entries(rules)) {
    checked[name] = rule.check(where, `${prefix}${name}`, own[name], rule, fallbacks[name])
  }
  checkKnownKeys(where, own, Object.keys(rules), `${prefix.replace('.', ' ')}option`)
  return checked as CheckedOptions<Rules>
}

/**
 * A credential or an address the server client also reads from the environment, when it is not
 * given (`CHARGEKIT_ACCOUNT_ID`): the rule's own check then judges it.
 */
export function configured<Check extends OptionCheck>(check: Check): Check {
  return ((where, name, given, rule, fallback) =>
    check(where, name, given ?? readEnvironment(rule.variable ?? ''), rule, fallback)) as Check
}

/** A string option; a credential's value is never repeated in the message (it may be logged). */
export function text(where: string, name: string, value: unknown, rule: OptionRule): string {
  if (typeof value !== 'string' || !(rule.pattern?.test(value) ?? true)) {
    throw optionError(where, `${name} must be ${rule.expected}`)
  }
  return value
}

/** A credential: required, then a {@link text} of at least `minLength` characters. */
export function credential(where: string, name: string, value: unknown, rule: OptionRule): string {
  if (value === undefined) {
    throw optionError(where, `${name} is missing; pass { ${name} } or set ${rule.variable}`)
  }
  const checked = text(where, name, value, rule)
  // Counted in characters, as a person counts a key, not in UTF-16 code units.
  const length = [...checked].length
  if (rule.minLength !== undefined && length < rule.minLength) {
    throw optionError(
      where,
      `${name} is too short: expected at least ${rule.minLength} characters, got ${length}; pass the whole key`,
    )
  }
  return checked
}

export function wholeNumber(
  where: string,
  name: string,
  value: unknown,
  { min, max, unit, default: declared }: OptionRule,
  fallback: unknown,
): number {
  if (value === undefined) return (fallback ?? declared) as number
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < (min as number) ||
    value > (max as number)
  ) {
    const of = unit === undefined ? '' : ` of ${unit}`
    throw optionError(
      where,
      `${name} must be a whole number${of} from ${min} to ${max} (got ${describeGiven(value)})`,
    )
  }
  return value
}

export function flag(
  where: string,
  name: string,
  value: unknown,
  rule: OptionRule,
  fallback: unknown,
): boolean {
  if (value === undefined) return (fallback ?? rule.default) as boolean
  if (typeof value !== 'boolean') {
    throw optionError(where, `${name} must be true or false (got ${describeGiven(value)})`)
  }
  return value
}

/** A callback option, undefined when not given; `expected` describes the function it must be. */
export function callback(where: string, name: string, value: unknown, rule: OptionRule): unknown {
  if (value !== undefined && typeof value !== 'function') {
    throw optionError(where, `${name} must be ${rule.expected} (got ${describeGiven(value)})`)
  }
  return value
}

/** An option read by the code that uses it, with a message of its own. */
export const anything = (_where: string, _name: string, value: unknown): unknown => value

/** An object of further options, each checked by its own rule; defaults when not given. */
export function options(
  where: string,
  name: string,
  value: unknown,
  rule: OptionRule,
): Record<string, unknown> {
  const rules = rule.rules ?? {}
  if (
    value !== undefined &&
    (typeof value !== 'object' || value === null || Array.isArray(value))
  ) {
    const [first = '', firstRule] = Object.entries(rules)[0] ?? []
    throw optionError(
      where,
      `${name} must be an object such as { ${first}: ${firstRule?.default} } (got ${describeGiven(value)})`,
    )
  }
  return checkOptions(where, rules, value ?? {}, {}, `${name}.`)
}

/**
 * Rejects keys `options` does not know, so a misspelt option (`timeout`, `idempotency_key`) fails
 * loudly instead of being ignored. The message lists the valid keys and the likely intended one;
 * `label` names what a key is (`option`, `backoff option`).
 */
function checkKnownKeys(
  where: string,
  options: object,
  known: readonly string[],
  label: string,
): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue
    const intended = closestName(key, known)
    const hint = intended === undefined ? '' : ` (did you mean ${intended}?)`
    throw optionError(
      where,
      `unknown ${label} ${JSON.stringify(key)}${hint}; the valid ${label}s are ${known.join(', ')}`,
    )
  }
}

export function optionError(where: string, message: string): ChargekitError {
  return new ChargekitError(`${where}: ${message}.`)
}

/**
 * `baseUrl` checked (an absolute http(s) URL without credentials, query or fragment) and without
 * a trailing `/v2`: callers copy either the origin or the API root, and both name one service.
 */
export function checkBaseUrl(where: string, _name: string, baseUrl: unknown): string {
  if (baseUrl === undefined) {
    throw optionError(
      where,
      'baseUrl is missing; pass { baseUrl } (for example the sandbox url, http://127.0.0.1:4010) or set CHARGEKIT_BASE_URL',
    )
  }
  const url = typeof baseUrl === 'string' ? parseUrl(baseUrl) : undefined
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw optionError(
      where,
      `baseUrl must be an absolute http(s) URL such as https://payments.example.com (got ${url === undefined ? describeGiven(baseUrl) : url.protocol})`,
    )
  }
  if (url.username !== '' || url.password !== '') {
    throw optionError(where, 'baseUrl must not contain credentials; pass them as options')
  }
  if (url.search !== '' || url.hash !== '') {
    throw optionError(where, `baseUrl must not have a query or fragment (got ${url.href})`)
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/\/v2$/, '')
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** The global `fetch`, for a client given none. */
export function globalFetch(where: string): FetchLike {
  if (typeof globalThis.fetch !== 'function') {
    throw optionError(where, 'this runtime has no global fetch; pass { fetch }')
  }
  // Bound: browsers throw "Illegal invocation" when fetch is called with another `this`.
  return globalThis.fetch.bind(globalThis)
}
