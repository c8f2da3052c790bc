import { ResponseValidationError } from './errors'
import type { HttpAnswer } from './http-transport'
import { noContentValidator, type ResponseValidator } from './response-validator'

/**
 * A 2xx body as the endpoint promises it: parsed, and checked by `validator` unless `validate`
 * is off. Anything else is a {@link ResponseValidationError} that names the mismatching fields.
 */
export function decodeResponse<T>(
  call: { method: string; validator: ResponseValidator<T> },
  path: string,
  response: HttpAnswer,
  validate: boolean,
  redact: (text: string) => string,
): T {
  const { status } = response
  // An answer with no content (DELETE's 204) has nothing to parse or check.
  if (call.validator === noContentValidator) return undefined as T
  let json: unknown
  try {
    json = JSON.parse(response.text)
  } catch {
    const { requestId, quoted } = requestIdOf(response)
    throw new ResponseValidationError(
      `${call.method} ${path} answered ${status} with a body that is not JSON${quoted}. Check that baseUrl points at the payment service.`,
      { status, requestId, issues: {}, body: response.text },
    )
  }
  if (!validate) return json as T
  const result = call.validator.validate(json)
  if (result.success) return result.data
  const { requestId, quoted } = requestIdOf(response)
  const listed = Object.entries(result.issues)
    .slice(0, 3)
    .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
    .join(' | ')
  throw new ResponseValidationError(
    redact(
      `${call.method} ${path} answered ${status} with a ${call.validator.name} that does not match its schema (${listed})${quoted}. Update @chargekit/client, or pass validate: false to accept it unchecked.`,
    ),
    { status, requestId, issues: result.issues, body: json },
  )
}

// Read only on failure: the success path stays free of header lookups.
function requestIdOf(response: HttpAnswer) {
  const requestId = response.header('request-id')
  return { requestId, quoted: requestId === undefined ? '' : ` (request id ${requestId})` }
}

/** Error bodies are JSON, but a proxy in between may answer with HTML or nothing. */
export function parseErrorBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
