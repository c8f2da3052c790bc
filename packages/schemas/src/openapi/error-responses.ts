import { errorCodes, lookupErrorCode } from '@chargekit/errors'
import { type Operation, pathParameters, takesIdempotencyKey } from '../operation'
import { type JsonSchema, ref } from './components'

const retryAfter = {
  'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
}

/** The error answers every operation shares, by status, for `components.responses`. */
const shared = {
  400: [
    'InvalidParameters',
    'The request was refused: `parameters` names each bad field and what was expected.',
    'ValidationErrorBody',
    ['01.01.0000'],
  ],
  401: [
    'Unauthorized',
    'Missing or wrong credentials.',
    'ApiErrorBody',
    ['05.03.0002'],
    { 'WWW-Authenticate': { description: '`Basic`.', schema: { type: 'string' } } },
  ],
  402: [
    'Declined',
    'The processor declined or failed the step. `metadata` names the failed object and its parents by id; the object is kept in its failed state and its `.error` or `.invalid` event is emitted. Any catalogue code can come: a test amount (`XZZZZ.YY`) chooses one (see `FailureCode`).',
    'ProcessorErrorBody',
    'any',
  ],
  403: [
    'Forbidden',
    'Only the private key may do this: call it from your server.',
    'ApiErrorBody',
    ['05.03.0000'],
  ],
  404: [
    'NotFound',
    'No such object in this account (another account’s objects are not found either).',
    'ApiErrorBody',
    'none',
  ],
  413: ['PayloadTooLarge', 'The body is over 1 MB.', 'ApiErrorBody', ['01.01.0000']],
  415: [
    'UnsupportedMediaType',
    'The body is neither JSON nor form fields.',
    'ApiErrorBody',
    ['01.01.0000'],
  ],
  429: [
    'TooManyRequests',
    'Over the rate limit, or too many failed sign-ins from this address or on this account.',
    'ApiErrorBody',
    ['02.01.0000'],
    retryAfter,
  ],
  500: [
    'InternalError',
    'A fault of the service: quote the `Request-Id`.',
    'ApiErrorBody',
    ['99.01.0000'],
  ],
  504: [
    'Timeout',
    'The answer was not ready in time (a slow processor); the work itself still finishes. Check the object before retrying.',
    'ApiErrorBody',
    ['04.02.0000'],
  ],
} as const satisfies Record<
  number,
  readonly [string, string, string, readonly string[] | 'any' | 'none', JsonSchema?]
>

type SharedStatus = keyof typeof shared

/** `components.responses` for the shared error answers, and the `FailureCode` schema. */
export function errorComponents(): { responses: JsonSchema; schemas: JsonSchema } {
  const responses = Object.fromEntries(
    Object.values(shared).map(([name, description, body, codes, headers]) => [
      name,
      errorResponse(description, body, codes, headers),
    ]),
  )
  const catalogue = errorCodes
    .map((info) => `| \`${info.code}\` | ${info.designation} | ${info.description} |`)
    .join('\n')
  const schemas = {
    FailureCode: {
      type: 'string',
      enum: errorCodes.map((info) => info.code),
      description: `A code of the catalogue, \`XX.YY.ZZZZ\`; the first pair is its category (01 validation, 02 soft decline, 03 hard decline, 04 communication, 05 implementation, 06 risk, 99 unhandled).\n\n| code | designation | meaning |\n|---|---|---|\n${catalogue}`,
    },
  }
  return { responses, schemas }
}

/**
 * The error answers of `operation`, by status: the shared ones by reference, the 409 (and a
 * 403 the public key can get from an operation it may call) with this operation's own codes.
 */
export function errorResponses(operation: Operation): Record<string, JsonSchema> {
  if (operation.keys === 'none') return {}
  const writes = operation.method !== 'GET'
  const statuses: SharedStatus[] = []
  if (writes || operation.query !== undefined) statuses.push(400)
  statuses.push(401)
  if (operation.declines !== undefined) statuses.push(402)
  if (operation.keys === 'private') statuses.push(403)
  if (pathParameters(operation.path).length > 0) statuses.push(404)
  if (writes) statuses.push(413, 415)
  statuses.push(429, 500, 504)
  const responses: Record<string, JsonSchema> = Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { $ref: `#/components/responses/${shared[status][0]}` },
    ]),
  )
  if (operation.publicKeyForbids !== undefined) {
    responses['403'] = errorResponse(
      `The public key may call this, but not with \`${operation.publicKeyForbids}: true\`: that takes the private key.`,
      'ApiErrorBody',
      ['05.03.0000'],
    )
  }
  const conflicts = [
    ...(operation.conflicts ?? []),
    ...(takesIdempotencyKey(operation) ? ['03.04.0000', '02.04.0000'] : []),
  ]
  if (conflicts.length > 0) {
    const idempotency = takesIdempotencyKey(operation)
      ? ' `03.04.0000` also answers an `Idempotency-Key` reused with another body, `02.04.0000` one still in progress (retry after `Retry-After`).'
      : ''
    responses['409'] = operation.refusesFailedCharge
      ? errorResponse(
          `The state does not allow the step.${idempotency} A charge whose charge step failed answers with its own failure code.\n\n${codeList(conflicts)}`,
          'ApiErrorBody',
          'any',
          retryAfter,
        )
      : errorResponse(
          `The state does not allow the step.${idempotency}`,
          'ApiErrorBody',
          conflicts,
          retryAfter,
        )
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)))
}

function errorResponse(
  description: string,
  body: string,
  codes: readonly string[] | 'any' | 'none',
  headers?: JsonSchema,
): JsonSchema {
  const listed = typeof codes === 'string' ? undefined : codeList(codes)
  return {
    description: listed === undefined ? description : `${description}\n\n${listed}`,
    ...(headers === undefined ? {} : { headers }),
    content: { 'application/json': { schema: bodySchema(body, codes) } },
  }
}

function bodySchema(body: string, codes: readonly string[] | 'any' | 'none'): JsonSchema {
  if (codes === 'none') return ref(body)
  const failureCode = codes === 'any' ? ref('FailureCode') : { enum: [...new Set(codes)] }
  return {
    allOf: [ref(body), { properties: { failure_code: failureCode }, required: ['failure_code'] }],
  }
}

function codeList(codes: readonly string[]): string {
  return [...new Set(codes)]
    .map((code) => `- \`${code}\` ${lookupErrorCode(code)?.designation ?? ''}`.trimEnd())
    .join('\n')
}
