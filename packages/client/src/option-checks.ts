import { closestName, describeGiven } from '@chargekit/errors'
import type { FetchLike } from './client-options'
import { readEnvironment } from './environment'
import { ChargekitError } from './errors'

/**
 * How one option is checked, as src/option-rules.ts declares it (generated from the options'
 * zod declaration): a whole number in a range, a flag, a string (a credential, which may come
 * from an environment variable and is never repeated in a message), an http(s) address, a
 * function, an object of further options, or `any` for what the code using it reads itself.
 */
export type OptionRule = { readonly optional?: true; readonly expected?: string } & (
  | {
      readonly kind: 'whole'
      readonly min: number
      readonly max: number
      readonly default: number
      readonly unit?: string
    }
  | { readonly kind: 'flag'; readonly default: boolean }
  | {
      readonly kind: 'string'
      readonly pattern?: RegExp
      readonly minLength?: number
      readonly variable?: string
    }
  | { readonly kind: 'url'; readonly variable?: string }
  | { readonly kind: 'function' | 'any' }
  | { readonly kind: 'object'; readonly rules: OptionRules }
)

/** The rules of an options object, in the order its options are checked and listed. */
export type OptionRules = { readonly [name: string]: OptionRule }

type CheckedValue<Rule extends OptionRule> = Rule extends { kind: 'whole' }
  ? number
  : Rule extends { kind: 'flag' }
    ? boolean
    : Rule extends { kind: 'string' | 'url' }
      ? Rule extends { optional: true }
        ? string | undefined
        : string
      : Rule extends { kind: 'object'; rules: infer Inner extends OptionRules }
        ? CheckedOptions<Inner>
        : unknown

/** The options once checked: defaults filled in, credentials read from the environment. */
export type CheckedOptions<Rules extends OptionRules> = {
  -readonly [Name in keyof Rules]: CheckedValue<Rules[Name]>
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
    checked[name] = checkOption(where, `${prefix}${name}`, rule, own[name], fallbacks[name])
  }
  const label = prefix === '' ? 'option' : `${prefix.slice(0, -1)} option`
  checkKnownKeys(where, own, Object.keys(rules), label)
  return checked as CheckedOptions<Rules>
}

function checkOption(
  where: string,
  name: string,
  rule: OptionRule,
  value: unknown,
  fallback: unknown,
): unknown {
  switch (rule.kind) {
    case 'whole':
      return checkWholeNumber(where, name, value, rule, (fallback as number) ?? rule.default)
    case 'flag':
      return checkFlag(where, name, value, (fallback as boolean) ?? rule.default)
    case 'string':
      return checkString(where, name, value, rule)
    case 'url':
      return checkBaseUrl(where, value ?? readVariable(rule.variable))
    case 'function':
      return checkFunction(where, name, value, rule.expected ?? 'a function')
    case 'object':
      if (value === undefined) return checkOptions(where, rule.rules, {}, {}, `${name}.`)
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        const [first = '', firstRule] = Object.entries(rule.rules)[0] ?? []
        const example = firstRule !== undefined && 'default' in firstRule ? firstRule.default : ''
        throw optionError(
          where,
          `${name} must be an object such as { ${first}: ${example} } (got ${describeGiven(value)})`,
        )
      }
      return checkOptions(where, rule.rules, value, {}, `${name}.`)
    case 'any':
      return value
  }
}

const readVariable = (variable: string | undefined) =>
  variable === undefined ? undefined : readEnvironment(variable)

/**
 * A string option, given or else read from its variable; a credential's value is never repeated
 * in the message (a message may end up in a log).
 */
function checkString(
  where: string,
  name: string,
  given: unknown,
  rule: Extract<OptionRule, { kind: 'string' }>,
): string | undefined {
  const value = given ?? readVariable(rule.variable)
  if (value === undefined) {
    if (rule.optional === true) return undefined
    if (rule.variable !== undefined) {
      throw optionError(where, `${name} is missing; pass { ${name} } or set ${rule.variable}`)
    }
  }
  if (typeof value !== 'string' || !(rule.pattern?.test(value) ?? true)) {
    throw optionError(where, `${name} must be ${rule.expected ?? 'a string'}`)
  }
  // Counted in characters, as a person counts a key, not in UTF-16 code units.
  const length = [...value].length
  if (rule.minLength !== undefined && length < rule.minLength) {
    throw optionError(
      where,
      `${name} is too short: expected at least ${rule.minLength} characters, got ${length}; pass the whole key`,
    )
  }
  return value
}

/**
 * The checks of one option each throw a {@link ChargekitError} that names the option (`where`:
 * who received it), what is expected and what was given, and return the option's default when
 * it was not given.
 */
function checkWholeNumber(
  where: string,
  name: string,
  value: unknown,
  { min, max, unit }: { min: number; max: number; unit?: string },
  fallback: number,
): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const whole = unit === undefined ? 'a whole number' : `a whole number of ${unit}`
    throw optionError(
      where,
      `${name} must be ${whole} from ${min} to ${max} (got ${describeGiven(value)})`,
    )
  }
  return value
}

function checkFlag(where: string, name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') {
    throw optionError(where, `${name} must be true or false (got ${describeGiven(value)})`)
  }
  return value
}

/** A callback option, undefined when not given; `expected` describes the function it must be. */
function checkFunction<T>(
  where: string,
  name: string,
  value: unknown,
  expected: string,
): T | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'function') {
    throw optionError(where, `${name} must be ${expected} (got ${describeGiven(value)})`)
  }
  return value as T
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
  label = 'option',
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
export function checkBaseUrl(where: string, baseUrl: unknown): string {
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

export function checkFetch(where: string, fetch: unknown): FetchLike {
  if (fetch !== undefined) {
    if (typeof fetch !== 'function') {
      throw optionError(where, 'fetch must be a function with the signature of the global fetch')
    }
    return fetch as FetchLike
  }
  if (typeof globalThis.fetch !== 'function') {
    throw optionError(where, 'this runtime has no global fetch; pass { fetch }')
  }
  // Bound: browsers throw "Illegal invocation" when fetch is called with another `this`.
  return globalThis.fetch.bind(globalThis)
}
