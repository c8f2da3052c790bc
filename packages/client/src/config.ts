import { type ErrorCodeInfo, lookupErrorCode } from '@chargekit/errors'
import { abortableSleep } from './abortable-sleep'
import { basicAuthorization } from './basic-auth'
import type { ClientOptions, FetchLike } from './client-options'
import { fetchTransport } from './fetch-transport'
import type { HttpTransport } from './http-transport'
import type { ClientLogger } from './logger'
import { checkOptions, globalFetch, type OptionRules, optionError } from './option-checks'
import { clientOptionRules, requestOptionRules } from './option-rules'
import type { ResolvedBackoff } from './retry-policy'
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
  /** What each call may override (src/option-rules.ts): its options are checked against these. */
  callOptionRules: OptionRules
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

function globalFetchTransport(): HttpTransport {
  return fetchTransport(globalFetch(where))
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
  // Option by option as declared (src/option-rules.ts), then what depends on several options.
  const checked = checkOptions(where, clientOptionRules, options)
  const fetch = checked.fetch as FetchLike | undefined
  const transport = checked.transport as HttpTransport | undefined
  if (isBrowser() && !checked.dangerouslyAllowBrowser) {
    throw optionError(
      where,
      "refusing to run in a browser: the private key would be readable by anyone who opens the page, and it can move money. In the browser use createBrowserClient({ publicKey, baseUrl }) from @chargekit/client/browser with the account's public key, and keep this client on your server. Pass dangerouslyAllowBrowser: true only where nobody else can read the page (an internal tool)",
    )
  }
  if (fetch !== undefined && transport !== undefined) {
    throw optionError(where, 'pass fetch or transport, not both: a transport does not use fetch')
  }
  const authorization = basicAuthorization(checked.accountId, checked.privateKey)
  const secrets = [checked.privateKey, authorization.slice('Basic '.length)]
  return {
    apiUrl: `${checked.baseUrl}/v2`,
    callOptionRules: requestOptionRules,
    authorization,
    transport: transport ?? (fetch === undefined ? defaultTransport() : fetchTransport(fetch)),
    timeoutMs: checked.timeoutMs,
    deadlineMs: checked.deadlineMs,
    maxRetries: checked.maxRetries,
    backoff: checked.backoff as ResolvedBackoff,
    sleep: abortableSleep,
    logger: checked.logger as ClientLogger | undefined,
    validate: checked.validate,
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
