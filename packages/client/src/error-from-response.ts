import { categoryOf, lookupErrorCode } from '@chargekit/errors'
import {
  ApiError,
  type ApiErrorDetails,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './errors'
import { paymentErrorFrom } from './payment-decline'
import { parseRetryAfter } from './retry-policy'

/** The parts of a failed call the error is built from. */
export interface FailedCall {
  method: string
  path: string
  status: number
  headers: Headers
  /** Parsed JSON, or the raw text when the body was not JSON. */
  body: unknown
  idempotencyKey: string | undefined
  attempts: number
  /** Removes credentials from any text that goes into a message. */
  redact: (text: string) => string
}

/** Turns a non-2xx answer into the {@link ApiError} subclass of its status. */
export function errorFromResponse(call: FailedCall): ApiError {
  const fields = readErrorFields(call.body)
  const info = fields.code === undefined ? undefined : lookupErrorCode(fields.code)
  const details: ApiErrorDetails = {
    status: call.status,
    code: fields.code,
    category: fields.code === undefined ? undefined : categoryOf(fields.code)?.name,
    designation: info?.designation ?? fields.failureDescription,
    body: call.body,
    requestId: call.headers.get('request-id') ?? undefined,
    idempotencyKey: call.idempotencyKey,
    method: call.method,
    path: call.path,
    headers: call.headers,
    attempts: call.attempts,
  }
  const summary = summarize(call, details, fields.message)
  const status = call.status

  if (status === 402) {
    return paymentErrorFrom(call.path, fields, info, details, {
      suffix: suffix(details),
      redact: call.redact,
    })
  }
  if (status === 401 || status === 403) {
    return new AuthenticationError(
      `${summary}. Check the accountId and privateKey passed to createClient (or CHARGEKIT_ACCOUNT_ID / CHARGEKIT_PRIVATE_KEY) and that they belong to this baseUrl.${suffix(details)}`,
      details,
    )
  }
  if (status === 404) {
    return new NotFoundError(
      `${summary}. Check the id: it must exist and belong to this account.${suffix(details)}`,
      details,
    )
  }
  if (status === 400 || status === 413 || status === 415 || status === 422) {
    const listed = Object.entries(fields.parameters)
      .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
      .join(' · ')
    const hint = listed === '' ? 'Fix the request' : `Fix these parameters: ${listed}`
    return new ValidationError(
      `${summary}. ${call.redact(hint)}.${suffix(details)}`,
      details,
      fields.parameters,
    )
  }
  if (status === 409) {
    const key = call.idempotencyKey ?? '(none)'
    const hint = call.headers.has('retry-after')
      ? `The request with Idempotency-Key ${key} is still in flight; send it again with the same key after Retry-After`
      : fields.code === '03.04.0000'
        ? `Idempotency-Key ${key} was already used with another request body; use a new key for a new request`
        : 'The object is not in a state that allows this request; retrieve it to see its current state'
    return new ConflictError(`${summary}. ${hint}.${suffix(details)}`, details)
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(call.headers.get('retry-after'), Date.now())
    const wait = retryAfterMs === undefined ? '' : ` The service asked to wait ${retryAfterMs} ms.`
    return new RateLimitError(
      `${summary}.${wait} Lower the request rate or raise maxRetries.${suffix(details)}`,
      details,
      retryAfterMs,
    )
  }
  if (status >= 500) {
    return new ServerError(
      `${summary}. The service failed; retry later, and quote the request id if it persists.${suffix(details)}`,
      details,
    )
  }
  return new ApiError(`${summary}.${suffix(details)}`, details)
}

/** The fields of an error body (DESIGN §4), read defensively: any of them may be missing. */
export interface ErrorFields {
  message: string | undefined
  code: string | undefined
  failureDescription: string | undefined
  metadata: Readonly<Record<string, unknown>>
  parameters: Readonly<Record<string, readonly string[]>>
}

function readErrorFields(body: unknown): ErrorFields {
  const record = isRecord(body) ? body : {}
  const metadata = isRecord(record.metadata) ? record.metadata : {}
  return {
    message: stringOrUndefined(record.message),
    code: stringOrUndefined(record.failure_code),
    failureDescription:
      stringOrUndefined(record.failure_description) ??
      stringOrUndefined(metadata.failure_description),
    metadata,
    parameters: readParameters(record.parameters),
  }
}

function readParameters(value: unknown): Record<string, readonly string[]> {
  if (!isRecord(value)) return {}
  const parameters: Record<string, readonly string[]> = {}
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) parameters[field] = messages.map(String)
    else if (typeof messages === 'string') parameters[field] = [messages]
  }
  return parameters
}

function summarize(call: FailedCall, details: ApiErrorDetails, message: string | undefined) {
  const code = details.code === undefined ? '' : ` ${details.code}`
  const designation = details.designation === undefined ? '' : ` ${details.designation}`
  const said = message === undefined ? '' : `: ${call.redact(message)}`
  return `${call.method} ${call.path} failed with ${call.status}${code}${designation}${said}`
}

function suffix(details: ApiErrorDetails) {
  const parts: string[] = []
  if (details.requestId !== undefined) parts.push(`request id ${details.requestId}`)
  if (details.attempts > 1) parts.push(`${details.attempts} attempts`)
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}
