import type {
  ChargeTypeInfo,
  ChargeTypeList,
  CreateChargeRequest,
  Instrument,
  InstrumentCreateParams,
  PublicCharge,
} from '@chargekit/schemas'
import {
  chargesCreate,
  chargesRetrieve,
  chargesTypes,
  instrumentsCreate,
  instrumentsRetrieve,
  type OperationRoute,
} from '@chargekit/schemas/operations'
import { abortableSleep } from './abortable-sleep'
import { type ApiPromise, mapApiPromise } from './api-promise'
import { basicAuthorization } from './basic-auth'
import type { FetchLike } from './client-options'
import { fetchTransport } from './fetch-transport'
import { checkOptions, globalFetch, optionError } from './option-checks'
import { browserClientOptionRules, browserRequestOptionRules } from './option-rules'
import { createRequestLoop } from './request-loop'
import { paramsObject } from './resources/arguments'
import { operationSender } from './resources/operation-call'
import { uncheckedValidator } from './response-validator'
import { defaultBackoff } from './retry-policy'

export interface BrowserClientOptions {
  /**
   * The account's public key (`pk_…`), sent as the HTTP Basic user with an empty password. It
   * may only create instruments and charges and read charge types, charges and instruments, so it
   * is safe in a web page; the private key never is.
   */
  publicKey: string
  /** The service origin, e.g. the sandbox's `url` (a trailing `/v2` is accepted too). */
  baseUrl: string
  /** Default: the global `fetch`. */
  fetch?: FetchLike
  /** Longest time one HTTP attempt may take. Default 30000 ms. */
  timeoutMs?: number
  /** Longest time one call may take, all attempts included. Default 120000 ms. */
  deadlineMs?: number
  /** Retries after the first attempt, for connection errors, timeouts, 429 and 5xx. Default 2. */
  maxRetries?: number
}

/** Per-call options of the browser client. */
export interface BrowserRequestOptions {
  /** Cancels the call at once, also while it waits to retry. */
  signal?: AbortSignal
  /** Only for POSTs: the `Idempotency-Key` (default: a random UUID, the same on every retry). */
  idempotencyKey?: string
}

/**
 * What a checkout page may do with the public key. Every call is an `ApiPromise`: `await` it for
 * the body, or `.withResponse()` for the status, headers and request id as well.
 */
export interface BrowserClient {
  readonly charges: {
    /**
     * The charge types on offer, each with the JSON Schema of its instrument request, to draw
     * the payment form from.
     */
    types(options?: BrowserRequestOptions): ApiPromise<ChargeTypeInfo[]>
    /**
     * A charge started by the customer, created unconfirmed; the merchant's server confirms it
     * with the private key before an instrument can be created from it.
     */
    create(params: CreateChargeRequest, options?: BrowserRequestOptions): ApiPromise<PublicCharge>
    /**
     * The charge as it is now, as the browser reads it: `events_url`, `metadata` and the other
     * fields only the merchant's server reads are left out.
     */
    retrieve(id: string, options?: BrowserRequestOptions): ApiPromise<PublicCharge>
  }
  readonly instruments: {
    /**
     * Sends what the customer gives (a card, an MB WAY phone number, or
     * only the charge for a payment reference or PayPal) straight to the service, so a card never
     * passes through the merchant's server. A decline throws a PaymentError. A `pending`
     * instrument says what the customer must do in `redirect`: navigate to `redirect.url`
     * (3-D Secure, PayPal), or, when it is null, see `redirect.parameters` (the reference to pay,
     * the phone the MB WAY notification went to).
     */
    create(params: InstrumentCreateParams, options?: BrowserRequestOptions): ApiPromise<Instrument>
    /** The instrument as it is now: e.g. on the return page after 3-D Secure. */
    retrieve(id: string, options?: BrowserRequestOptions): ApiPromise<Instrument>
  }
}

const where = 'createBrowserClient'

// Unchecked: the server, which acts on these objects, reads them again with `createClient`.
const unchecked = uncheckedValidator('answer')

/**
 * The client for a customer's browser: only the calls the public key may make, with the same
 * retries, idempotency keys, timeouts and typed errors as `createClient`, in a few kilobytes.
 */
export function createBrowserClient(options: BrowserClientOptions): BrowserClient {
  if (typeof options !== 'object' || options === null) {
    throw optionError(where, 'expected an options object such as { publicKey, baseUrl }')
  }
  const checked = checkOptions(where, browserClientOptionRules, options)
  // The sandbox's and most providers' private keys start so; a page must never hold one.
  if (checked.publicKey.startsWith('sk_')) {
    throw optionError(
      where,
      'publicKey looks like a private key (sk_…): never put the private key in a browser; pass the public key (pk_…)',
    )
  }
  const call = createRequestLoop({
    apiUrl: `${checked.baseUrl}/v2`,
    callOptionRules: browserRequestOptionRules,
    authorization: basicAuthorization(checked.publicKey, ''),
    transport: fetchTransport((checked.fetch as FetchLike | undefined) ?? globalFetch(where)),
    timeoutMs: checked.timeoutMs,
    deadlineMs: checked.deadlineMs,
    maxRetries: checked.maxRetries,
    backoff: defaultBackoff,
    sleep: abortableSleep,
    logger: undefined,
    validate: false,
    // Nothing to hide: the public key is in the page anyway.
    redact: (text) => text,
    credentialsHint:
      'Check the publicKey passed to createBrowserClient and that it belongs to this baseUrl; anything the public key may not do belongs on your server, with the private key.',
    userAgent: undefined,
    lookupErrorCode: () => undefined,
  })
  const sendOperation = operationSender(call, () => unchecked)
  const send = <T>(
    operation: OperationRoute,
    ids: readonly unknown[],
    body: (() => unknown) | undefined,
    callOptions: BrowserRequestOptions | undefined,
  ) => {
    return sendOperation<T>(operation, ids, body, callOptions)
  }
  return Object.freeze({
    charges: Object.freeze({
      types: (callOptions?: BrowserRequestOptions) =>
        mapApiPromise(
          send<ChargeTypeList>(chargesTypes, [], undefined, callOptions),
          (list) => list.collection,
        ),
      create: (params: CreateChargeRequest, callOptions?: BrowserRequestOptions) =>
        send<PublicCharge>(
          chargesCreate,
          [],
          () => paramsObject(chargesCreate.id, params, true),
          callOptions,
        ),
      retrieve: (id: string, callOptions?: BrowserRequestOptions) =>
        send<PublicCharge>(chargesRetrieve, [id], undefined, callOptions),
    }),
    instruments: Object.freeze({
      create: (params: InstrumentCreateParams, callOptions?: BrowserRequestOptions) =>
        send<Instrument>(
          instrumentsCreate,
          [],
          () => paramsObject(instrumentsCreate.id, params, true),
          callOptions,
        ),
      retrieve: (id: string, callOptions?: BrowserRequestOptions) =>
        send<Instrument>(instrumentsRetrieve, [id], undefined, callOptions),
    }),
  })
}
