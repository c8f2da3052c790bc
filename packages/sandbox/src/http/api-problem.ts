// The API's error answers: a status, a JSON body with a catalogue code, and headers. Thrown by
// the HTTP layer for what only it judges (credentials, limits, bodies); a lifecycle step's
// refusal becomes one in `problemOf`.

import { rootIssueKey } from '@chargekit/schemas'
import { SandboxError } from '../errors'
import { designationOf, type LifecycleError } from '../lifecycle/lifecycle-error'

/** The JSON body of every error answer. */
export interface ProblemBody {
  message: string
  failure_code?: string
  failure_description?: string
  /** The processor's own text about a decline, beside the catalogue's designation. */
  failure_message?: string
  metadata?: Record<string, string>
  parameters?: Record<string, string[]>
}

/**
 * A request the API answers with an error status instead of a result, rendered as JSON with
 * its status and failure code.
 */
export class ApiProblem extends SandboxError {
  readonly status: number
  readonly body: ProblemBody
  readonly headers: Readonly<Record<string, string>>

  constructor(status: number, body: ProblemBody, headers: Record<string, string> = {}) {
    super(body.message)
    this.name = 'ApiProblem'
    this.status = status
    this.body = body
    this.headers = headers
  }
}

function coded(code: string, message: string): ProblemBody {
  return { message, failure_code: code, failure_description: designationOf(code) }
}

/** 400 01.01.0000 with the `parameters` map: field path → what was expected. */
export function invalidParameters(
  parameters: Record<string, string[]>,
  message = 'Invalid request parameters: see `parameters` for each field and what was expected',
): ApiProblem {
  return new ApiProblem(400, { ...coded('01.01.0000', message), parameters })
}

/** 400 for a problem with the body as a whole (not JSON, not an object). */
export function invalidBody(expected: string): ApiProblem {
  return invalidParameters({ [rootIssueKey]: [expected] }, `Invalid request body: ${expected}`)
}

/** 409: the request clashes with another (an idempotency key reused, or still in flight). */
export function conflict(code: string, message: string, headers?: Record<string, string>) {
  return new ApiProblem(409, coded(code, message), headers)
}

export function unauthorized(): ApiProblem {
  return new ApiProblem(
    401,
    coded(
      '05.03.0002',
      'Missing or wrong credentials: use HTTP Basic auth with your account id as user name and your private key as password (from a browser: your public key as user name and an empty password)',
    ),
    { 'www-authenticate': 'Basic realm="chargekit-sandbox", charset="UTF-8"' },
  )
}

/** 413: the body is over the route's size limit. */
export function payloadTooLarge(limitBytes: number): ApiProblem {
  return new ApiProblem(
    413,
    coded('01.01.0000', `Request body is larger than ${limitBytes} bytes: send less data`),
  )
}

/** 415: the body is neither JSON nor form fields. */
export function unsupportedMediaType(): ApiProblem {
  return new ApiProblem(
    415,
    coded(
      '01.01.0000',
      'Request bodies must be JSON (or application/x-www-form-urlencoded form fields): send JSON with Content-Type: application/json',
    ),
  )
}

/** 504: the answer was not ready in time (a slow processor); the work itself still finishes. */
export function timedOut(timeoutMs: number): ApiProblem {
  return new ApiProblem(
    504,
    coded(
      '04.02.0000',
      `The sandbox did not answer within ${timeoutMs} ms (a slow processor?): check the object's state before retrying`,
    ),
  )
}

export function tooManyRequests(retryAfterSeconds: number): ApiProblem {
  return new ApiProblem(
    429,
    coded(
      '02.01.0000',
      `Rate limit exceeded for this account: retry after ${retryAfterSeconds} s (Retry-After)`,
    ),
    { 'retry-after': String(retryAfterSeconds) },
  )
}

/** 429 before the credentials are checked: this address or account failed too often lately. */
export function tooManyFailedAttempts(retryAfterSeconds: number): ApiProblem {
  return new ApiProblem(
    429,
    coded(
      '02.01.0000',
      `Too many failed attempts with wrong credentials from this address or on this account: check the account id and key, then retry after ${retryAfterSeconds} s (Retry-After)`,
    ),
    { 'retry-after': String(retryAfterSeconds) },
  )
}

export function internalError(): ApiProblem {
  return new ApiProblem(
    500,
    coded(
      '99.01.0000',
      'Internal error in the sandbox: the server logged the details under this answer’s Request-Id',
    ),
  )
}

const statusOf: Record<LifecycleError['code'], number> = {
  invalid_parameters: 400,
  not_found: 404,
  conflict: 409,
  declined: 402,
}

/**
 * A lifecycle step's refusal as the API answers it. A decline's body is exactly the service's:
 * "Transaction Error", the code, its designation, and metadata naming the failed object and
 * its parents; `failure_message` when the processor explained the decline in its own words.
 */
export function problemOf(error: LifecycleError): ApiProblem {
  const status = statusOf[error.code]
  const failure =
    error.failureCode === undefined
      ? {}
      : { failure_code: error.failureCode, failure_description: error.failureDescription ?? '' }
  switch (error.code) {
    case 'not_found':
      return new ApiProblem(status, { message: error.message })
    case 'invalid_parameters':
      return new ApiProblem(status, {
        message: error.message,
        ...failure,
        parameters: { ...error.parameters },
      })
    case 'conflict':
      return new ApiProblem(status, { message: error.message, ...failure })
    case 'declined':
      return new ApiProblem(status, {
        message: 'Transaction Error',
        metadata: { failure_description: error.failureDescription ?? '', ...error.objects },
        ...failure,
        ...(error.processorMessage === undefined
          ? {}
          : { failure_message: error.processorMessage }),
      })
  }
}
