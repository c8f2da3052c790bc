import type { HttpTransport } from './http-transport'
import type { ClientLogger } from './logger'
import type { BackoffOptions } from './retry-policy'

/** The `fetch` the client calls: the global one by default, or any compatible implementation. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

export interface ClientOptions {
  /** The account id (HTTP Basic user). Default: `CHARGEKIT_ACCOUNT_ID`. */
  accountId?: string
  /** The private key (HTTP Basic password). Default: `CHARGEKIT_PRIVATE_KEY`. */
  privateKey?: string
  /**
   * The service origin, e.g. the sandbox's `url` (a trailing `/v2` is accepted too). Required:
   * no production host is built in. Default: `CHARGEKIT_BASE_URL`.
   */
  baseUrl?: string
  /**
   * Sends the calls with this `fetch`. Default: the global `fetch`, except on Node, where calls
   * go over `node:http` unless this is given.
   */
  fetch?: FetchLike
  /**
   * How requests reach the service, instead of `fetch`: `nodeTransport()` from
   * `@chargekit/client/node` with your own agents, for example. Retries, timeouts, aborts and
   * errors stay the same. Default: on Node, `node:http` with kept-alive connections shared by
   * the process's clients; elsewhere the global `fetch`.
   */
  transport?: HttpTransport
  /** Longest time one HTTP attempt (headers and body) may take. Default 30000 ms. */
  timeoutMs?: number
  /** Longest time one call may take, all attempts and waits included. Default 120000 ms. */
  deadlineMs?: number
  /** Retries after the first attempt, for connection errors, timeouts, 408, 429, 5xx. Default 2. */
  maxRetries?: number
  /** The waits between attempts. */
  backoff?: BackoffOptions
  /** Sees every request, retry and response (the Authorization header redacted). */
  logger?: ClientLogger
  /** Validate every response against its `@chargekit/schemas` schema. Default true. */
  validate?: boolean
  /**
   * This client refuses to start in a browser, where anyone who opens the page could read the
   * private key; browsers use `createBrowserClient` with the public key. `true` allows it, for
   * pages nobody else can read (an internal tool). Default false.
   */
  dangerouslyAllowBrowser?: boolean
}

/** Options each call may override. */
export interface RequestOptions {
  /** Cancels the call at once, also while it waits to retry. */
  signal?: AbortSignal
  /** Only for POSTs: the `Idempotency-Key` (default: a random UUID, the same on every retry). */
  idempotencyKey?: string
  timeoutMs?: number
  deadlineMs?: number
  maxRetries?: number
  validate?: boolean
}
