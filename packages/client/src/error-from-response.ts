import { categoryOf, type ErrorCodeInfo } from '@chargekit/errors'
import {
  ApiError,
  type ApiErrorDetails,
  AuthenticationError,
  ConflictError,
  type DeclinedElement,
  NotFoundError,
  PaymentError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './errors'
import { describeDecline } from './payment-decline'
import { parseRetryAfter } from './retry-policy'

/** The failure code of the 409 "this Idempotency-Key is still in flight" (Temporary Issue): retry it. */
export const inFlightConflictCode = '02.04.0000'
/** The failure code of a 409 for an Idempotency-Key reused with another body. */
const reusedKeyCode = '03.04.0000'

/** The parts of a failed call the error is built from. */
export interface FailedCall {
  method: string
  /** The whole URL path, for messages: `/v2/charges/ch_1`. */
  path: string
  /** The step the operation would have taken, when the body of a 402 names no object. */
  declines: DeclinedElement | undefined
  status: number
  headers: Headers
  /** Parsed JSON, or the raw text when the body was not JSON. */
  body: unknown
  idempotencyKey: string | undefined
  attempts: number
  /** Removes credentials from any text that goes into a message. */
  redact: (text: string) => string
  /** What a 401 or 403 tells the caller to check: the credentials this client was given. */
  credentialsHint: string
  /** The catalogue entry of a code, for its designation and description; see ClientConfig. */
  lookupErrorCode: (code: string) => ErrorCodeInfo | undefined
}

/**
 * Turns a non-2xx answer into the {@link ApiError} subclass of its status. Every message goes
 * through `redact` as a whole, because most of it (message, failure description, parameters,
 * Location) is text the server chose.
 */
export function errorFromResponse(call: FailedCall): ApiError {
  const fields = readErrorFields(call.body, call.redact)
  const info = fields.code === undefined ? undefined : call.lookupErrorCode(fields.code)
  const category = fields.code === undefined ? undefined : categoryOf(fields.code)
  const details: ApiErrorDetails = {
    status: call.status,
    code: fields.code,
    category: category?.name,
    designation: info?.designation ?? fields.failureDescription,
    body: call.body,
    requestId: call.headers.get('request-id') ?? undefined,
    idempotencyKey: call.idempotencyKey,
    method: call.method,
    path: call.path,
    headers: call.headers,
    attempts: call.attempts,
  }
  const message = (text: string) => call.redact(`${text}${suffix(details)}`)
  const summary = summarize(call, details, fields.message)
  const status = call.status

  // Status 0: a browser's opaque answer to `redirect: 'manual'`, which hides status and target.
  if (status === 0 || (status >= 300 && status < 400)) {
    const location = call.headers.get('location')
    const answered =
      status === 0
        ? 'answered with a redirect'
        : `answered ${status}, a redirect${location === null ? '' : ` to ${location}`}`
    return new ApiError(
      message(
        `${call.method} ${call.path} ${answered}. The client does not follow redirects (a 301/302/303 would turn a POST into a GET): set baseUrl to the address the service answers at itself`,
      ),
      details,
    )
  }
  if (status === 402) {
    const decline = describeDecline(call.declines, fields.metadata, info, details)
    return new PaymentError(message(decline.message), details, {
      element: decline.element,
      objectId: decline.objectId,
      ids: decline.ids,
      failureDescription: fields.failureDescription,
      // A code missing from the catalogue (a newer one) is judged by its category.
      retryable: info?.retryable ?? category?.retryable === 'yes',
    })
  }
  if (status === 401 || status === 403) {
    return new AuthenticationError(message(`${summary}. ${call.credentialsHint}`), details)
  }
  if (status === 404) {
    return new NotFoundError(
      message(`${summary}. Check the id: it must exist and belong to this account.`),
      details,
    )
  }
  if (status === 400 || status === 413 || status === 415 || status === 422) {
    const listed = Object.entries(fields.parameters)
      .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
      .join(' · ')
    const hint = listed === '' ? 'Fix the request' : `Fix these parameters: ${listed}`
    return new ValidationError(message(`${summary}. ${hint}.`), details, fields.parameters)
  }
  if (status === 409) {
    const key = call.idempotencyKey ?? '(none)'
    const hint =
      fields.code === inFlightConflictCode
        ? `The request with Idempotency-Key ${key} is still in flight; send it again with the same key after Retry-After`
        : fields.code === reusedKeyCode
          ? `Idempotency-Key ${key} was already used with another request body; use a new key for a new request`
          : 'The object is not in a state that allows this request; retrieve it to see its current state'
    return new ConflictError(message(`${summary}. ${hint}.`), details)
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(call.headers.get('retry-after'), Date.now())
    const wait = retryAfterMs === undefined ? '' : ` The service asked to wait ${retryAfterMs} ms.`
    return new RateLimitError(
      message(`${summary}.${wait} Lower the request rate or raise maxRetries.`),
      details,
      retryAfterMs,
    )
  }
  if (status >= 500) {
    return new ServerError(
      message(
        `${summary}. The service failed; retry later, and quote the request id if it persists.`,
      ),
      details,
    )
  }
  return new ApiError(message(`${summary}.`), details)
}

/** The fields of an error body; any of them may be missing or malformed. */
interface ErrorFields {
  message: string | undefined
  code: string | undefined
  /** Redacted: it goes into messages and properties. */
  failureDescription: string | undefined
  metadata: Readonly<Record<string, unknown>>
  parameters: Readonly<Record<string, readonly string[]>>
}

/**
 * Reads each field of the error body on its own, so one malformed field (or a proxy's body
 * without `message`) loses only that field, not the failure code. Plain checks rather than the
 * body's zod schema keep zod out of the browser client, which shares this file.
 */
function readErrorFields(body: unknown, redact: (text: string) => string): ErrorFields {
  const record = isRecord(body) ? body : {}
  const metadata = isRecord(record.metadata) ? record.metadata : {}
  const failureDescription =
    nonEmptyString(record.failure_description) ?? nonEmptyString(metadata.failure_description)
  const code = record.failure_code
  return {
    message: nonEmptyString(record.message),
    code: typeof code === 'string' && /^\d{2}\.\d{2}\.\d{4}$/.test(code) ? code : undefined,
    failureDescription: failureDescription === undefined ? undefined : redact(failureDescription),
    metadata,
    parameters: isParameters(record.parameters) ? record.parameters : {},
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isParameters(value: unknown): value is Record<string, string[]> {
  return (
    isRecord(value) &&
    Object.values(value).every(
      (messages) => Array.isArray(messages) && messages.every((text) => typeof text === 'string'),
    )
  )
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function summarize(call: FailedCall, details: ApiErrorDetails, message: string | undefined) {
  const code = details.code === undefined ? '' : ` ${details.code}`
  const designation = details.designation === undefined ? '' : ` ${details.designation}`
  const said = message === undefined ? '' : `: ${message}`
  return `${call.method} ${call.path} failed with ${call.status}${code}${designation}${said}`
}

function suffix(details: ApiErrorDetails) {
  const parts: string[] = []
  if (details.requestId !== undefined) parts.push(`request id ${details.requestId}`)
  if (details.attempts > 1) parts.push(`${details.attempts} attempts`)
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`
}
