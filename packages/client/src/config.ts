import { type ErrorCodeInfo, lookupErrorCode } from '@chargekit/errors'
import { type OptionProblem, readOptions } from '@chargekit/schemas'
import * as z from 'zod/v4'
import { abortableSleep } from './abortable-sleep'
import { basicAuthorization } from './basic-auth'
import type { ClientOptions } from './client-options'
import { readEnvironment } from './environment'
import { fetchTransport } from './fetch-transport'
import type { HttpTransport } from './http-transport'
import type { ClientLogger } from './logger'
import {
  checkBaseUrl,
  checkFetch,
  maxTimerMs,
  optionError,
  unknownOptionError,
} from './option-checks'
import { defaultBackoff, type ResolvedBackoff } from './retry-policy'
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
 * The shortest private key accepted. Messages are redacted by replacing the key wherever it
 * appears; a key of a few characters would also match ordinary words, and no real key is that short.
 */
const minPrivateKeyLength = 8

function wholeNumber(from: number, to: number, unit = '') {
  const error = `must be a whole number${unit} from ${from} to ${to}`
  return z.int({ error }).min(from, { error }).max(to, { error }).optional()
}

const milliseconds = (min: number) => wholeNumber(min, maxTimerMs, ' of milliseconds')

const aFunction = <T>(error: string) =>
  z.custom<T>((value) => typeof value === 'function', { error }).optional()

const flag = z.boolean({ error: 'must be true or false' }).optional()

/**
 * A credential: required once the environment is read, and described without repeating it (a
 * message may end up in a log).
 */
function credential(option: string, variable: string, rule: RegExp, expected: string) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `is missing; pass { ${option} } or set ${variable}`
          : `must be ${expected}`,
    })
    .regex(rule, { error: `must be ${expected}` })
}

/**
 * `createClient`'s options, with the credentials and `baseUrl` already taken from the
 * environment where the caller left them out. `baseUrl` itself is checked by the rule the browser
 * client shares.
 */
const clientOptionsSchema = z.strictObject({
  accountId: credential(
    'accountId',
    'CHARGEKIT_ACCOUNT_ID',
    /^[^\s:\p{Cc}]+$/u,
    'a non-empty string without spaces, ":" or control characters (it is the HTTP Basic user)',
  ),
  privateKey: credential(
    'privateKey',
    'CHARGEKIT_PRIVATE_KEY',
    /^[^\s\p{Cc}]+$/u,
    'a non-empty string without spaces or control characters',
  ).min(minPrivateKeyLength, {
    error: (issue) =>
      `is too short: expected at least ${minPrivateKeyLength} characters, got ${(issue.input as string).length}; pass the whole key`,
  }),
  baseUrl: z.unknown().optional(),
  fetch: aFunction<ClientOptions['fetch']>(
    'must be a function with the signature of the global fetch',
  ),
  transport: aFunction<HttpTransport>(
    'must be a transport function, such as nodeTransport() from @chargekit/client/node',
  ),
  timeoutMs: milliseconds(1),
  deadlineMs: milliseconds(1),
  maxRetries: wholeNumber(0, 20),
  backoff: z
    .strictObject(
      {
        initialDelayMs: milliseconds(0),
        maxDelayMs: milliseconds(0),
        maxRetryAfterMs: milliseconds(0),
      },
      { error: 'must be an object such as { initialDelayMs: 500 }' },
    )
    .optional(),
  logger: aFunction<ClientLogger>('must be a function that receives one log entry'),
  validate: flag,
  dangerouslyAllowBrowser: flag,
})

/** Options whose value must never appear in a message. */
const secretOptions: ReadonlySet<string> = new Set(['accountId', 'privateKey'])

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
  const parsed = readOptions(
    clientOptionsSchema,
    {
      ...options,
      accountId: options.accountId ?? readEnvironment('CHARGEKIT_ACCOUNT_ID'),
      privateKey: options.privateKey ?? readEnvironment('CHARGEKIT_PRIVATE_KEY'),
    },
    { secret: secretOptions },
  )
  if (!parsed.success) throw optionsError(parsed.problem)
  const checked = parsed.data
  if (isBrowser() && checked.dangerouslyAllowBrowser !== true) {
    throw optionError(
      where,
      "refusing to run in a browser: the private key would be readable by anyone who opens the page, and it can move money. In the browser use createBrowserClient({ publicKey, baseUrl }) from @chargekit/client/browser with the account's public key, and keep this client on your server. Pass dangerouslyAllowBrowser: true only where nobody else can read the page (an internal tool)",
    )
  }
  if (checked.fetch !== undefined && checked.transport !== undefined) {
    throw optionError(where, 'pass fetch or transport, not both: a transport does not use fetch')
  }
  const { accountId, privateKey } = checked
  const authorization = basicAuthorization(accountId, privateKey)
  const secrets = [privateKey, authorization.slice('Basic '.length)]
  return {
    apiUrl: `${checkBaseUrl(where, options.baseUrl ?? readEnvironment('CHARGEKIT_BASE_URL'))}/v2`,
    authorization,
    transport:
      checked.transport ??
      (checked.fetch === undefined ? defaultTransport() : fetchTransport(checked.fetch)),
    timeoutMs: checked.timeoutMs ?? 30_000,
    deadlineMs: checked.deadlineMs ?? 120_000,
    maxRetries: checked.maxRetries ?? 2,
    backoff: {
      initialDelayMs: checked.backoff?.initialDelayMs ?? defaultBackoff.initialDelayMs,
      maxDelayMs: checked.backoff?.maxDelayMs ?? defaultBackoff.maxDelayMs,
      maxRetryAfterMs: checked.backoff?.maxRetryAfterMs ?? defaultBackoff.maxRetryAfterMs,
    },
    sleep: abortableSleep,
    logger: checked.logger,
    validate: checked.validate ?? true,
    redact: (text) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text),
    credentialsHint:
      'Check the accountId and privateKey passed to createClient (or CHARGEKIT_ACCOUNT_ID / CHARGEKIT_PRIVATE_KEY) and that they belong to this baseUrl.',
    userAgent: `chargekit-client/${VERSION}`,
    lookupErrorCode,
  }
}

/**
 * The first problem of the options as one message: the option's dotted name, what it must be and
 * what was given (never for a credential), or, for an unknown option, the likeliest intended one.
 */
function optionsError(problem: OptionProblem) {
  if (problem.kind === 'unknown') {
    const label = problem.path.length === 0 ? 'option' : `${problem.path.join('.')} option`
    return unknownOptionError(where, label, problem.key, problem.intended, problem.known)
  }
  const name = problem.path.join('.')
  if (problem.given === undefined) return optionError(where, `${name} ${problem.message}`)
  return optionError(where, `${name} ${problem.message} (got ${problem.given})`)
}

/** A page's script: both globals exist (Deno and workers have at most one of them). */
function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined'
}
