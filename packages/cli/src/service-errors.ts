import {
  ApiError,
  AuthenticationError,
  type ChargekitError,
  ConnectionError,
  TimeoutError,
} from '@chargekit/client'

/** What went wrong, in one line, and what to do about it, in the command line's words. */
export interface ServiceProblem {
  message: string
  next?: string | undefined
}

const startSandbox = 'For the local sandbox: npx @chargekit/sandbox'
const pointBaseUrl = '--base-url (or CHARGEKIT_BASE_URL)'

/**
 * An error of the client as the command line says it. The client's own messages name its options
 * (`baseUrl`, `timeoutMs`, the credentials "passed to createClient"); a command's user set them
 * with flags and variables, so where the fix is one of those, the message is told again from the
 * error's fields and names them.
 */
export function describeServiceError(error: ChargekitError): ServiceProblem {
  if (error instanceof TimeoutError) {
    return {
      message: `${error.method} ${error.path} timed out${attempts(error.attempts)}`,
      next: `Is the service at ${pointBaseUrl} up and reachable? ${startSandbox}.`,
    }
  }
  if (error instanceof ConnectionError) {
    return {
      message: `${error.method} ${error.path} got no answer: ${causeOf(error)}${attempts(error.attempts)}`,
      next: `Is the service running? ${startSandbox}; for another address, set ${pointBaseUrl}.`,
    }
  }
  if (error instanceof AuthenticationError) {
    return {
      message: `${error.method} ${error.path} was refused with ${error.status}${codeOf(error)}${requestIdOf(error)}`,
      next: 'Check --account-id and --private-key (or CHARGEKIT_ACCOUNT_ID and CHARGEKIT_PRIVATE_KEY): they must be an account of the service at --base-url.',
    }
  }
  if (
    error instanceof ApiError &&
    (error.status === 0 || (error.status >= 300 && error.status < 400))
  ) {
    const location = error.headers.get('location')
    return {
      message: `${error.method} ${error.path} answered with a redirect${location === null ? '' : ` to ${location}`}`,
      next: `Point ${pointBaseUrl} at the address the service answers at itself.`,
    }
  }
  return { message: error.message.replace(/\.$/, '') }
}

function attempts(count: number): string {
  return count > 1 ? ` (${count} attempts)` : ''
}

function codeOf(error: ApiError): string {
  return [error.code, error.designation]
    .filter((part) => part !== undefined)
    .map((part) => ` ${part}`)
    .join('')
}

function requestIdOf(error: ApiError): string {
  return error.requestId === undefined ? '' : ` (request id ${error.requestId})`
}

/** The network's reason, as the redacted cause the client attached says it: `connect ECONNREFUSED 127.0.0.1:4010`. */
function causeOf(error: ConnectionError): string {
  const parts: string[] = []
  for (let cause = error.cause, depth = 0; cause instanceof Error && depth < 3; depth++) {
    const code = (cause as { code?: unknown }).code
    parts.push(
      typeof code === 'string' && !cause.message.includes(code)
        ? `${cause.message} (${code})`
        : cause.message,
    )
    cause = cause.cause
  }
  return parts.length === 0 ? 'the connection failed' : parts.join(': ')
}
