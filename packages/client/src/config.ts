import { describeGiven, type ErrorCodeInfo, lookupErrorCode } from '@chargekit/errors'
import { abortableSleep } from './abortable-sleep'
import { basicAuthorization } from './basic-auth'
import type { ClientOptions, FetchLike } from './client-options'
import { readEnvironment } from './environment'
import { fetchTransport } from './fetch-transport'
import type { HttpTransport } from './http-transport'
import type { ClientLogger } from './logger'
import {
  checkBaseUrl,
  checkFetch,
  checkFlag,
  checkFunction,
  checkKnownKeys,
  checkMilliseconds,
  checkRetryCount,
  optionError,
} from './option-checks'
import { type BackoffOptions, defaultBackoff, type ResolvedBackoff } from './retry-policy'
import { VERSION } from './version'

/** Waits between two attempts; rejects with `onAbort()`'s error as soon as `signal` fires. */
export type RetrySleep = (
  ms: number,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
) => Promise<void>

/** Everything a call needs, checked once at construction. */
export interface ClientConfig {
  /** `{baseUrl}/v2`, without a trailing slash. */
  apiUrl: string
  authorization: string
  transport: HttpTransport
  timeoutMs: number
  deadlineMs: number
  maxRetries: number
  backoff: ResolvedBackoff
  /** The wait between attempts: real timers, except in the client's own tests. */
  sleep: RetrySleep
  logger: ClientLogger | undefined
  validate: boolean
  /** Removes the private key and the Authorization value from a text. */
  redact: (text: string) => string
  /** What a 401 or 403 tells the caller to check. */
  credentialsHint: string
  /** Sent as `User-Agent`; undefined in browsers, which would make it a CORS preflight header. */
  userAgent: string | undefined
  /**
   * The catalogue entry of a code, which adds its description to decline messages. The browser
   * client goes without (the catalogue would be a fifth of its size): the answer's body already
   * carries the designation, and the category comes from the code itself.
   */
  lookupErrorCode: (code: string) => ErrorCodeInfo | undefined
}

const where = 'createClient'

/**
 * Every key of {@link ClientOptions} (the compiler checks the list is complete), in the documented
 * order, which the checks follow and an unknown option's message lists.
 */
const optionKeys: readonly string[] = /* @__PURE__ */ Object.keys({
  accountId: true,
  privateKey: true,
  baseUrl: true,
  fetch: true,
  transport: true,
  timeoutMs: true,
  deadlineMs: true,
  maxRetries: true,
  backoff: true,
  logger: true,
  validate: true,
  dangerouslyAllowBrowser: true,
} satisfies Record<keyof ClientOptions, true>)

const backoffKeys: readonly string[] = /* @__PURE__ */ Object.keys({
  initialDelayMs: true,
  maxDelayMs: true,
  maxRetryAfterMs: true,
} satisfies Record<keyof BackoffOptions, true>)

/**
 * The shortest private key accepted. Messages are redacted by replacing the key wherever it
 * appears; a key of a few characters would also match ordinary words, and no real key is that short.
 */
const minPrivateKeyLength = 8

function globalFetchTransport(): HttpTransport {
  return fetchTransport(checkFetch(where, undefined))
}

/**
 * Checks the options (and the environment) and fails with a message that says what to pass.
 * `defaultTransport` sends the calls of a client given neither `fetch` nor `transport`: the
 * global `fetch`, except in the Node entry.
 */
export function resolveConfig(
  options: ClientOptions = {},
  defaultTransport: () => HttpTransport = globalFetchTransport,
): ClientConfig {
  if (typeof options !== 'object' || options === null) {
    throw optionError(
      where,
      'expected an options object such as { accountId, privateKey, baseUrl }',
    )
  }
  if ('environment' in options) {
    throw optionError(
      where,
      'the environment option is not supported because no hosted service address is built in; pass baseUrl (for example the sandbox url) or set CHARGEKIT_BASE_URL',
    )
  }
  // Only the object's own options count: one inherited through its prototype is not given.
  const given: ClientOptions = { ...options }
  // Option by option in the order of `optionKeys`, unknown keys after them, so that of several
  // mistakes the one reported is always the same; then what depends on several options, and
  // `baseUrl`, whose check the browser client shares.
  const accountId = checkCredential(
    'accountId',
    given.accountId,
    'CHARGEKIT_ACCOUNT_ID',
    /^[^\s:\p{Cc}]+$/u,
    'a non-empty string without spaces, ":" or control characters (it is the HTTP Basic user)',
  )
  const privateKey = checkCredential(
    'privateKey',
    given.privateKey,
    'CHARGEKIT_PRIVATE_KEY',
    /^[^\s\p{Cc}]+$/u,
    'a non-empty string without spaces or control characters',
  )
  // Counted in characters, as a person counts the key, not in UTF-16 code units.
  const privateKeyLength = [...privateKey].length
  if (privateKeyLength < minPrivateKeyLength) {
    throw optionError(
      where,
      `privateKey is too short: expected at least ${minPrivateKeyLength} characters, got ${privateKeyLength}; pass the whole key`,
    )
  }
  const fetch = checkFunction<FetchLike>(
    where,
    'fetch',
    given.fetch,
    'a function with the signature of the global fetch',
  )
  const transport = checkFunction<HttpTransport>(
    where,
    'transport',
    given.transport,
    'a transport function, such as nodeTransport() from @chargekit/client/node',
  )
  const timeoutMs = checkMilliseconds(where, 'timeoutMs', given.timeoutMs, 30_000)
  const deadlineMs = checkMilliseconds(where, 'deadlineMs', given.deadlineMs, 120_000)
  const maxRetries = checkRetryCount(where, given.maxRetries, 2)
  const backoff = checkBackoff(given.backoff)
  const logger = checkFunction<ClientLogger>(
    where,
    'logger',
    given.logger,
    'a function that receives one log entry',
  )
  const validate = checkFlag(where, 'validate', given.validate, true)
  const dangerouslyAllowBrowser = checkFlag(
    where,
    'dangerouslyAllowBrowser',
    given.dangerouslyAllowBrowser,
    false,
  )
  checkKnownKeys(where, given, optionKeys)
  if (isBrowser() && !dangerouslyAllowBrowser) {
    throw optionError(
      where,
      "refusing to run in a browser: the private key would be readable by anyone who opens the page, and it can move money. In the browser use createBrowserClient({ publicKey, baseUrl }) from @chargekit/client/browser with the account's public key, and keep this client on your server. Pass dangerouslyAllowBrowser: true only where nobody else can read the page (an internal tool)",
    )
  }
  if (fetch !== undefined && transport !== undefined) {
    throw optionError(where, 'pass fetch or transport, not both: a transport does not use fetch')
  }
  const authorization = basicAuthorization(accountId, privateKey)
  const secrets = [privateKey, authorization.slice('Basic '.length)]
  return {
    apiUrl: `${checkBaseUrl(where, given.baseUrl ?? readEnvironment('CHARGEKIT_BASE_URL'))}/v2`,
    authorization,
    transport: transport ?? (fetch === undefined ? defaultTransport() : fetchTransport(fetch)),
    timeoutMs,
    deadlineMs,
    maxRetries,
    backoff,
    sleep: abortableSleep,
    logger,
    validate,
    redact: (text) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text),
    credentialsHint:
      'Check the accountId and privateKey passed to createClient (or CHARGEKIT_ACCOUNT_ID / CHARGEKIT_PRIVATE_KEY) and that they belong to this baseUrl.',
    userAgent: `chargekit-client/${VERSION}`,
    lookupErrorCode,
  }
}

/**
 * A credential, given or else read from `variable`: required, and never repeated in the message
 * (a message may end up in a log).
 */
function checkCredential(
  name: string,
  given: unknown,
  variable: string,
  rule: RegExp,
  expected: string,
): string {
  const value = given ?? readEnvironment(variable)
  if (value === undefined) {
    throw optionError(where, `${name} is missing; pass { ${name} } or set ${variable}`)
  }
  if (typeof value !== 'string' || !rule.test(value)) {
    throw optionError(where, `${name} must be ${expected}`)
  }
  return value
}

/** The waits between attempts: each one checked, the ones not given defaulted. */
function checkBackoff(backoff: BackoffOptions | undefined): ResolvedBackoff {
  if (backoff === undefined) return defaultBackoff
  if (typeof backoff !== 'object' || backoff === null || Array.isArray(backoff)) {
    throw optionError(
      where,
      `backoff must be an object such as { initialDelayMs: 500 } (got ${describeGiven(backoff)})`,
    )
  }
  const checked: ResolvedBackoff = {
    initialDelayMs: checkMilliseconds(
      where,
      'backoff.initialDelayMs',
      backoff.initialDelayMs,
      defaultBackoff.initialDelayMs,
      0,
    ),
    maxDelayMs: checkMilliseconds(
      where,
      'backoff.maxDelayMs',
      backoff.maxDelayMs,
      defaultBackoff.maxDelayMs,
      0,
    ),
    maxRetryAfterMs: checkMilliseconds(
      where,
      'backoff.maxRetryAfterMs',
      backoff.maxRetryAfterMs,
      defaultBackoff.maxRetryAfterMs,
      0,
    ),
  }
  checkKnownKeys(where, backoff, backoffKeys, 'backoff option')
  return checked
}

/** A page's script: both globals exist (Deno and workers have at most one of them). */
function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined'
}
