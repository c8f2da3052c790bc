import {
  ChargekitError,
  type ErrorCategoryName,
  type ErrorCode,
  type TestElement,
} from '@chargekit/errors'

// Every chargekit package's errors share this base; `instanceof` holds across the ESM and
// CommonJS builds.
export { ChargekitError }

/** What an {@link ApiError} is built from: the service's answer and the call that caused it. */
export interface ApiErrorDetails {
  status: number
  /**
   * The `failure_code` of the body (`XX.YY.ZZZZ`), when the service sent one: one of the
   * catalogue's codes (which editors complete), or a code newer than this package.
   */
  code: ErrorCode | (string & {}) | undefined
  category: ErrorCategoryName | undefined
  designation: string | undefined
  /** The parsed JSON body (or the raw text when it was not JSON). */
  body: unknown
  /** The `Request-Id` response header: quote it when asking about this call. */
  requestId: string | undefined
  /** The `Idempotency-Key` the call was sent with (POST only). */
  idempotencyKey: string | undefined
  method: string
  path: string
  headers: Headers
  /** How many HTTP attempts the call made before giving up. */
  attempts: number
}

/** The service answered with a non-2xx status. Subclasses name the common cases. */
export class ApiError extends ChargekitError {
  override name = 'ApiError'
  readonly status: number
  /** The body's `failure_code`: a catalogue `ErrorCode`, or a newer code as a plain string. */
  readonly code: ErrorCode | (string & {}) | undefined
  readonly category: ErrorCategoryName | undefined
  readonly designation: string | undefined
  readonly body: unknown
  readonly requestId: string | undefined
  readonly idempotencyKey: string | undefined
  readonly method: string
  readonly path: string
  readonly headers: Headers
  readonly attempts: number

  constructor(message: string, details: ApiErrorDetails) {
    super(message)
    this.status = details.status
    this.code = details.code
    this.category = details.category
    this.designation = details.designation
    this.body = details.body
    this.requestId = details.requestId
    this.idempotencyKey = details.idempotencyKey
    this.method = details.method
    this.path = details.path
    this.headers = details.headers
    this.attempts = details.attempts
  }
}

/** 401/403: the account id or private key is missing, wrong, or lacks permission. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError'
}

/** 404: no such object in this account (another account's ids answer 404 too). */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError'
}

/** 400/413/415/422: the request was malformed; `parameters` maps each bad field to messages. */
export class ValidationError extends ApiError {
  override name = 'ValidationError'
  readonly parameters: Readonly<Record<string, readonly string[]>>

  constructor(
    message: string,
    details: ApiErrorDetails,
    parameters: Readonly<Record<string, readonly string[]>>,
  ) {
    super(message, details)
    this.parameters = parameters
  }
}

/** 409: the object's state does not allow the request, or an idempotency key clashed. */
export class ConflictError extends ApiError {
  override name = 'ConflictError'
}

/** The kinds of object a processor can decline: the steps `@chargekit/errors` names `TestElement`. */
export type DeclinedElement = TestElement

/** 402: the processor declined or failed a step; the failed object persists in its failed state. */
export class PaymentError extends ApiError {
  override name = 'PaymentError'
  /** Which step failed, from the ids in the body's `metadata` (or the endpoint). */
  readonly element: DeclinedElement | undefined
  /** The id of the failed object (it exists, in its failed state). */
  readonly objectId: string | undefined
  /**
   * Every object the decline names, by kind: the failed one and those it derives from. A
   * declined capture names `{ charge, instrument, payment }`, so the still-authorized instrument
   * can be captured again or reversed.
   */
  readonly ids: Readonly<Partial<Record<DeclinedElement, string>>>
  readonly failureDescription: string | undefined
  /** Whether the same request may succeed later (from the catalogue; false when unknown). */
  readonly retryable: boolean

  constructor(
    message: string,
    details: ApiErrorDetails,
    decline: {
      element: DeclinedElement | undefined
      objectId: string | undefined
      ids: Readonly<Partial<Record<DeclinedElement, string>>>
      failureDescription: string | undefined
      retryable: boolean
    },
  ) {
    super(message, details)
    this.element = decline.element
    this.objectId = decline.objectId
    this.ids = decline.ids
    this.failureDescription = decline.failureDescription
    this.retryable = decline.retryable
  }
}

/** 429: too many requests; `retryAfterMs` is what the service asked to wait, when it said. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError'
  readonly retryAfterMs: number | undefined

  constructor(message: string, details: ApiErrorDetails, retryAfterMs: number | undefined) {
    super(message, details)
    this.retryAfterMs = retryAfterMs
  }
}

/** 5xx: the service failed. Retried automatically; thrown once the retries are used up. */
export class ServerError extends ApiError {
  override name = 'ServerError'
}

/** No usable HTTP answer: refused or reset connection, DNS failure, a body cut short. */
export class ConnectionError extends ChargekitError {
  override name = 'ConnectionError'
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  readonly attempts: number

  constructor(
    message: string,
    details: { method: string; path: string; idempotencyKey: string | undefined; attempts: number },
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.method = details.method
    this.path = details.path
    this.idempotencyKey = details.idempotencyKey
    this.attempts = details.attempts
  }
}

/** An attempt outlived `timeoutMs`, or the call outlived its overall `deadlineMs`. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError'
}

/**
 * The caller's `AbortSignal` fired. Named `AbortError` like the DOM's, so code that checks
 * `error.name === 'AbortError'` keeps working; `cause` is the signal's reason.
 */
export class AbortError extends ChargekitError {
  override name = 'AbortError'
  /** The POST's key: resending with it cannot apply the request twice. */
  readonly idempotencyKey: string | undefined

  constructor(
    message: string,
    details: { idempotencyKey: string | undefined },
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.idempotencyKey = details.idempotencyKey
  }
}

/** A 2xx answer whose body is not JSON or does not match the resource's schema. */
export class ResponseValidationError extends ChargekitError {
  override name = 'ResponseValidationError'
  readonly status: number
  readonly requestId: string | undefined
  /** Dotted field path → what was expected, like a 400's `parameters`. */
  readonly issues: Readonly<Record<string, readonly string[]>>
  readonly body: unknown

  constructor(
    message: string,
    details: {
      status: number
      requestId: string | undefined
      issues: Readonly<Record<string, readonly string[]>>
      body: unknown
    },
  ) {
    super(message)
    this.status = details.status
    this.requestId = details.requestId
    this.issues = details.issues
    this.body = details.body
  }
}
