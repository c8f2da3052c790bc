import { type ErrorCodeInfo, lookupErrorCode } from '@chargekit/errors'
import { basicAuthorization } from './basic-auth'
import { type ClientOptions, clientOptionKeys, type FetchLike } from './client-options'
import { readEnvironment } from './environment'
import type { ClientLogger } from './logger'
import {
  checkFlag,
  checkKnownKeys,
  checkMilliseconds,
  checkRetryCount,
  describe,
  optionError,
} from './option-checks'
import {
  type BackoffOptions,
  backoffOptionKeys,
  defaultBackoff,
  type ResolvedBackoff,
} from './retry-policy'
import { VERSION } from './version'

/** Everything a call needs, checked once at construction. */
export interface ClientConfig {
  /** `{baseUrl}/v2`, without a trailing slash. */
  apiUrl: string
  authorization: string
  fetch: FetchLike
  timeoutMs: number
  deadlineMs: number
  maxRetries: number
  backoff: ResolvedBackoff
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
 * The shortest private key accepted. Messages are redacted by replacing the key wherever it
 * appears; a key of a few characters would also match ordinary words, and no real key is that short.
 */
const minPrivateKeyLength = 8

/** Checks the options (and the environment) and fails with a message that says what to pass. */
export function resolveConfig(options: ClientOptions = {}): ClientConfig {
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
  checkKnownKeys(where, options, clientOptionKeys)
  const allowBrowser = checkFlag(
    where,
    'dangerouslyAllowBrowser',
    options.dangerouslyAllowBrowser,
    false,
  )
  if (isBrowser() && !allowBrowser) {
    throw optionError(
      where,
      "refusing to run in a browser: the private key would be readable by anyone who opens the page, and it can move money. In the browser use createBrowserClient({ publicKey, baseUrl }) from @chargekit/client/browser with the account's public key, and keep this client on your server. Pass dangerouslyAllowBrowser: true only where nobody else can read the page (an internal tool)",
    )
  }
  const accountId = options.accountId ?? readEnvironment('CHARGEKIT_ACCOUNT_ID')
  const privateKey = options.privateKey ?? readEnvironment('CHARGEKIT_PRIVATE_KEY')
  const authorization = basicAuthorization(checkAccountId(accountId), checkPrivateKey(privateKey))
  const secrets = [privateKey as string, authorization.slice('Basic '.length)]
  const backoff = checkBackoff(options.backoff)

  return {
    apiUrl: `${checkBaseUrl(where, options.baseUrl ?? readEnvironment('CHARGEKIT_BASE_URL'))}/v2`,
    authorization,
    fetch: checkFetch(where, options.fetch),
    timeoutMs: checkMilliseconds(where, 'timeoutMs', options.timeoutMs, 30_000),
    deadlineMs: checkMilliseconds(where, 'deadlineMs', options.deadlineMs, 120_000),
    maxRetries: checkRetryCount(where, options.maxRetries, 2),
    backoff: {
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
    },
    logger: checkLogger(options.logger),
    validate: checkFlag(where, 'validate', options.validate, true),
    redact: (text) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text),
    credentialsHint:
      'Check the accountId and privateKey passed to createClient (or CHARGEKIT_ACCOUNT_ID / CHARGEKIT_PRIVATE_KEY) and that they belong to this baseUrl.',
    userAgent: `chargekit-client/${VERSION}`,
    lookupErrorCode,
  }
}

/** A page's script: both globals exist (Deno and workers have at most one of them). */
function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined'
}

// The credential checks describe what is wrong without repeating the value.
function checkAccountId(accountId: unknown): string {
  if (accountId === undefined) {
    throw optionError(where, 'accountId is missing; pass { accountId } or set CHARGEKIT_ACCOUNT_ID')
  }
  if (typeof accountId !== 'string' || !/^[^\s:\p{Cc}]+$/u.test(accountId)) {
    throw optionError(
      where,
      'accountId must be a non-empty string without spaces, ":" or control characters (it is the HTTP Basic user)',
    )
  }
  return accountId
}

function checkPrivateKey(privateKey: unknown): string {
  if (privateKey === undefined) {
    throw optionError(
      where,
      'privateKey is missing; pass { privateKey } or set CHARGEKIT_PRIVATE_KEY',
    )
  }
  if (typeof privateKey !== 'string' || !/^[^\s\p{Cc}]+$/u.test(privateKey)) {
    throw optionError(
      where,
      'privateKey must be a non-empty string without spaces or control characters',
    )
  }
  if (privateKey.length < minPrivateKeyLength) {
    throw optionError(
      where,
      `privateKey is too short: expected at least ${minPrivateKeyLength} characters, got ${privateKey.length}; pass the whole key`,
    )
  }
  return privateKey
}

function checkBackoff(backoff: unknown): BackoffOptions {
  if (backoff === undefined) return {}
  if (typeof backoff !== 'object' || backoff === null) {
    throw optionError(
      where,
      `backoff must be an object such as { initialDelayMs: 500 } (got ${describe(backoff)})`,
    )
  }
  checkKnownKeys(where, backoff, backoffOptionKeys, 'backoff option')
  return backoff
}

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
      `baseUrl must be an absolute http(s) URL such as https://payments.example.com (got ${url === undefined ? describe(baseUrl) : url.protocol})`,
    )
  }
  if (url.username !== '' || url.password !== '') {
    throw optionError(where, 'baseUrl must not contain credentials; pass them as options')
  }
  if (url.search !== '' || url.hash !== '') {
    throw optionError(where, `baseUrl must not have a query or fragment (got ${url.href})`)
  }
  // Callers copy either the origin or the API root (`…/v2`): both name the same service.
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

function checkLogger(logger: unknown): ClientLogger | undefined {
  if (logger === undefined) return undefined
  if (typeof logger !== 'function') {
    throw optionError(where, 'logger must be a function that receives one log entry')
  }
  return logger as ClientLogger
}
