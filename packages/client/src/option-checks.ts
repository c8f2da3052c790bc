import { closestName, describeGiven } from '@chargekit/errors'
import type { FetchLike } from './client-options'
import { ChargekitError } from './errors'

/** The largest delay `setTimeout` supports; a larger one would fire at once instead of never. */
const maxTimerMs = 2_147_483_647

/**
 * Checks of options, shared by both clients' constructors and per-call options. Each throws a
 * {@link ChargekitError} that names the option (`where`: who received it), what is expected and
 * what was given, and returns the option's default when it was not given.
 */
export function checkMilliseconds(
  where: string,
  name: string,
  value: unknown,
  fallback: number,
  min = 1,
): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > maxTimerMs) {
    throw optionError(
      where,
      `${name} must be a whole number of milliseconds from ${min} to ${maxTimerMs} (got ${describeGiven(value)})`,
    )
  }
  return value
}

export function checkRetryCount(where: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 20) {
    throw optionError(
      where,
      `maxRetries must be a whole number from 0 to 20 (got ${describeGiven(value)})`,
    )
  }
  return value
}

export function checkFlag(where: string, name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') {
    throw optionError(where, `${name} must be true or false (got ${describeGiven(value)})`)
  }
  return value
}

/** A callback option, undefined when not given; `expected` describes the function it must be. */
export function checkFunction<T>(
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
export function checkKnownKeys(
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
