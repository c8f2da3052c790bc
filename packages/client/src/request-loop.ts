import { describeGiven } from '@chargekit/errors'
import { idempotencyKeyRule, isIdempotencyKey } from '@chargekit/schemas/idempotency-key'
import { type Answered, type ApiPromise, apiPromise } from './api-promise'
import { abortError, attempt } from './attempt'
import type { RequestOptions } from './client-options'
import type { ClientConfig } from './config'
import { decodeResponse, parseErrorBody } from './decode-response'
import { errorFromResponse, inFlightConflictCode } from './error-from-response'
import type { DeclinedElement } from './errors'
import type { HttpAnswer } from './http-transport'
import { redactHeaders } from './logger'
import { checkOptions, type OptionRules, optionError } from './option-checks'
import { randomUuid } from './random-uuid'
import type { ResponseValidator } from './response-validator'
import { backoffDelay, isRetryableStatus, parseRetryAfter } from './retry-policy'

/** One API call as a resource method describes it. */
export interface CallSpec<T> {
  method: 'GET' | 'POST' | 'DELETE'
  /** Under the API root, already encoded: `/charges/ch_1`. */
  path: string
  /** `''` or `?…` from `toQueryString`. */
  query: string
  /**
   * JSON-serializable; a POST without one sends `{}` (the service takes JSON bodies only). A
   * DELETE sends none.
   */
  body: unknown
  validator: ResponseValidator<T>
  options: RequestOptions | undefined
  /** The step a 402 of this call declines, when its body names no object. */
  declines?: DeclinedElement | undefined
}

/**
 * Sends one call. The spec comes from a function so that a bad argument found while building it
 * rejects the returned promise like every other failure instead of throwing.
 */
export type SendCall = <T>(buildSpec: () => CallSpec<T>) => ApiPromise<T>

interface CallSettings {
  signal: AbortSignal | undefined
  timeoutMs: number
  deadlineMs: number
  maxRetries: number
  validate: boolean
}

/**
 * The request loop every method goes through: auth, headers, the Idempotency-Key, per-attempt
 * timeout and overall deadline, retries with backoff and Retry-After, typed errors, validation.
 * Everything that does not change per call (headers, defaults) is built once here.
 */
export function createRequestLoop(config: ClientConfig): SendCall {
  const getHeaders: Record<string, string> = {
    accept: 'application/json',
    authorization: config.authorization,
    ...(config.userAgent === undefined ? {} : { 'user-agent': config.userAgent }),
  }
  const defaults: CallSettings = {
    signal: undefined,
    timeoutMs: config.timeoutMs,
    deadlineMs: config.deadlineMs,
    maxRetries: config.maxRetries,
    validate: config.validate,
  }
  const rootPath = new URL(config.apiUrl).pathname
  const { logger, redact } = config

  return (buildSpec) => apiPromise(send(buildSpec))

  async function send<T>(buildSpec: () => CallSpec<T>): Promise<Answered<T>> {
    const spec = buildSpec()
    const settings =
      spec.options === undefined
        ? defaults
        : settingsFor(spec.options, config.callOptionRules, defaults)
    const path = rootPath + spec.path
    const url = config.apiUrl + spec.path + spec.query
    const isPost = spec.method === 'POST'
    // Writes carry a key, so a retry after a lost answer cannot apply them twice.
    const idempotencyKey = spec.method === 'GET' ? undefined : idempotencyKeyFor(spec.options)
    const headers =
      idempotencyKey === undefined
        ? getHeaders
        : {
            ...getHeaders,
            ...(isPost ? { 'content-type': 'application/json' } : {}),
            'idempotency-key': idempotencyKey,
          }
    const body = isPost ? JSON.stringify(spec.body ?? {}) : undefined
    const { signal } = settings
    const identity = { method: spec.method, path, idempotencyKey }
    if (signal?.aborted) throw abortError(identity, signal)

    const startedAt = Date.now()
    for (let attemptNumber = 1; ; attemptNumber++) {
      const remaining = settings.deadlineMs - (attemptNumber === 1 ? 0 : Date.now() - startedAt)
      const budgetMs = Math.max(1, Math.min(settings.timeoutMs, remaining))
      const sentAt = logger === undefined ? 0 : Date.now()
      if (logger !== undefined) {
        log({
          type: 'request',
          method: spec.method,
          url,
          attempt: attemptNumber,
          headers: redactHeaders(headers),
        })
      }
      const result = await attempt({
        transport: config.transport,
        method: spec.method,
        url,
        path,
        headers,
        body,
        signal,
        budgetMs,
        budgetIsDeadline: remaining <= settings.timeoutMs,
        attempt: attemptNumber,
        idempotencyKey,
        redact,
      })

      if (result.ok && logger !== undefined) {
        log({
          type: 'response',
          method: spec.method,
          url,
          attempt: attemptNumber,
          status: result.answer.status,
          requestId: result.answer.header('request-id'),
          durationMs: Date.now() - sentAt,
        })
      }
      if (result.ok && result.answer.status >= 200 && result.answer.status < 300) {
        const { answer } = result
        return { data: decodeResponse(spec, path, answer, settings.validate, redact), answer }
      }
      const { failure, retryable, waitMs, reason } = result.ok
        ? judgeResponse(result.answer, {
            method: spec.method,
            path,
            declines: spec.declines,
            idempotencyKey,
            attemptNumber,
          })
        : { failure: result.error, retryable: true, waitMs: undefined, reason: result.error.name }
      if (!retryable || attemptNumber > settings.maxRetries) throw failure
      const delayMs =
        waitMs === undefined
          ? backoffDelay(attemptNumber - 1, config.backoff)
          : Math.min(waitMs, config.backoff.maxRetryAfterMs)
      // A retry that cannot start before the deadline would only fail later with less to say.
      if (Date.now() - startedAt + delayMs >= settings.deadlineMs) throw failure
      if (logger !== undefined) {
        log({ type: 'retry', method: spec.method, url, attempt: attemptNumber, reason, delayMs })
      }
      await config.sleep(delayMs, signal, () => abortError(identity, signal as AbortSignal))
    }
  }

  /** The error a non-2xx answer becomes, and whether (and how long after) to send it again. */
  function judgeResponse(
    response: HttpAnswer,
    call: {
      method: string
      path: string
      declines: DeclinedElement | undefined
      idempotencyKey: string | undefined
      attemptNumber: number
    },
  ) {
    const failure = errorFromResponse({
      method: call.method,
      path: call.path,
      declines: call.declines,
      status: response.status,
      headers: response.headers(),
      body: parseErrorBody(response.text),
      idempotencyKey: call.idempotencyKey,
      attempts: call.attemptNumber,
      redact,
      credentialsHint: config.credentialsHint,
      lookupErrorCode: config.lookupErrorCode,
    })
    const retryable =
      isRetryableStatus(response.status) ||
      // The same key still in flight answers 409 02.04.0000: wait and resend it. Any
      // other 409 (an illegal transition, a key reused with another body) answers the same again.
      (response.status === 409 &&
        call.idempotencyKey !== undefined &&
        failure.code === inFlightConflictCode)
    return {
      failure,
      retryable,
      waitMs: parseRetryAfter(response.header('retry-after') ?? null, Date.now()),
      reason: String(response.status),
    }
  }

  /** A throwing logger is a bug in the caller's code, but it must not fail a payment. */
  function log(entry: Parameters<NonNullable<typeof logger>>[0]) {
    try {
      logger?.(entry)
    } catch {
      // Ignored on purpose: see above.
    }
  }
}

function settingsFor(
  options: RequestOptions,
  rules: OptionRules,
  defaults: CallSettings,
): CallSettings {
  const where = 'request options'
  if (typeof options !== 'object' || options === null) {
    throw optionError(
      where,
      `expected an object such as { signal, idempotencyKey } (got ${describeGiven(options)})`,
    )
  }
  // What the rules do not take (a browser client's call has no timeoutMs) is the client's own.
  const checked = { ...defaults, ...checkOptions(where, rules, options, { ...defaults }) }
  const signal = checked.signal as AbortSignal | undefined
  // Duck-typed: a signal from another realm (an iframe, a test environment) fails `instanceof`.
  if (
    signal !== undefined &&
    (typeof signal?.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')
  ) {
    throw optionError(where, 'signal must be an AbortSignal')
  }
  return {
    signal,
    timeoutMs: checked.timeoutMs as number,
    deadlineMs: checked.deadlineMs as number,
    maxRetries: checked.maxRetries as number,
    validate: checked.validate as boolean,
  }
}

/** The caller's key, checked against the service's rule so a bad one fails before sending, or a new one. */
function idempotencyKeyFor(options: RequestOptions | undefined): string {
  const key = options?.idempotencyKey
  if (key === undefined) return randomUuid()
  if (!isIdempotencyKey(key)) {
    throw optionError('request options', `idempotencyKey must be ${idempotencyKeyRule}`)
  }
  return key
}
