import { AbortError, ConnectionError, TimeoutError } from './errors'
import type { HttpAnswer, HttpTransport } from './http-transport'
import { redactCause } from './redact-cause'

/** One HTTP attempt of a call, as the retry loop sees it. */
export interface AttemptInput {
  transport: HttpTransport
  method: string
  url: string
  /** For messages: method + path, never the full URL with its query. */
  path: string
  headers: Record<string, string>
  body: string | undefined
  /** The caller's signal: aborts this attempt and the whole call. */
  signal: AbortSignal | undefined
  /** This attempt's time budget: the smaller of `timeoutMs` and what is left of the deadline. */
  budgetMs: number
  /** True when the budget is what is left of the deadline, so a timeout ends the call. */
  budgetIsDeadline: boolean
  attempt: number
  idempotencyKey: string | undefined
  /** Removes credentials from text that goes into a message. */
  redact: (text: string) => string
}

export type AttemptResult = { ok: true; answer: HttpAnswer } | { ok: false; error: ConnectionError }

/**
 * Sends one request and reads its whole body under one timer. Connection failures and timeouts
 * resolve as values (the loop decides whether to retry); the caller's abort rejects at once. A
 * timeout or an abort cancels the exchange, which closes its connection.
 */
export function attempt(input: AttemptInput): Promise<AttemptResult> {
  return new Promise((resolve, reject) => {
    const { signal } = input
    if (signal?.aborted) {
      reject(abortError(input, signal))
      return
    }
    const exchange = input.transport({
      method: input.method,
      url: input.url,
      headers: input.headers,
      body: input.body,
    })
    let settled = false
    const settle = () => {
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onCallerAbort)
    }
    const timer = setTimeout(() => {
      if (settled) return
      settle()
      exchange.cancel()
      resolve({ ok: false, error: timeoutError(input) })
    }, input.budgetMs)
    const onCallerAbort = () => {
      if (settled) return
      settle()
      exchange.cancel()
      reject(abortError(input, signal as AbortSignal))
    }
    signal?.addEventListener('abort', onCallerAbort)
    exchange.answer.then(
      (answer) => {
        if (settled) return
        settle()
        resolve({ ok: true, answer })
      },
      (cause: unknown) => {
        if (settled) return
        settle()
        resolve({ ok: false, error: connectionError(input, cause) })
      },
    )
  })
}

function timeoutError(input: AttemptInput): TimeoutError {
  const limit = input.budgetIsDeadline ? 'the call deadline (deadlineMs)' : 'timeoutMs'
  return new TimeoutError(
    `${input.method} ${input.path} timed out after ${input.budgetMs} ms, reaching ${limit}${attemptsNote(input.attempt)}. Raise timeoutMs or deadlineMs if the service is slow${idempotencyNote(input.idempotencyKey)}.`,
    details(input),
  )
}

function connectionError(input: AttemptInput, cause: unknown): ConnectionError {
  return new ConnectionError(
    `${input.method} ${input.path} got no answer: ${input.redact(describeCause(cause))}${attemptsNote(input.attempt)}. Check baseUrl and the network${idempotencyNote(input.idempotencyKey)}.`,
    details(input),
    { cause: redactCause(cause, input.redact) },
  )
}

function details(input: AttemptInput) {
  return {
    method: input.method,
    path: input.path,
    idempotencyKey: input.idempotencyKey,
    attempts: input.attempt,
  }
}

/** The error for a call the caller aborted; it names the key that makes a resend safe. */
export function abortError(
  call: { method: string; path: string; idempotencyKey: string | undefined },
  signal: AbortSignal,
): AbortError {
  return new AbortError(
    `${call.method} ${call.path} was aborted by the caller's AbortSignal${idempotencyNote(call.idempotencyKey)}.`,
    { idempotencyKey: call.idempotencyKey },
    { cause: signal.reason },
  )
}

function idempotencyNote(key: string | undefined) {
  return key === undefined
    ? ''
    : `; it may have reached the service: sending it again with idempotencyKey "${key}" cannot apply it twice`
}

function attemptsNote(attempts: number) {
  return attempts > 1 ? ` (attempt ${attempts})` : ''
}

/** fetch failures hide the reason in `cause` (undici: `TypeError: fetch failed`, cause ECONNRESET). */
function describeCause(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code
    parts.push(typeof code === 'string' ? `${current.message} (${code})` : current.message)
    current = current.cause
  }
  return parts.length === 0 ? String(error) : parts.join(': ')
}
