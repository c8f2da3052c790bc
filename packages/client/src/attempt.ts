import type { FetchLike } from './client-options'
import { AbortError, ConnectionError, TimeoutError } from './errors'
import { redactCause } from './redact-cause'

/** One HTTP attempt of a call, as the retry loop sees it. */
export interface AttemptInput {
  fetch: FetchLike
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

export type AttemptResult =
  | { ok: true; status: number; headers: Headers; text: string }
  | { ok: false; error: ConnectionError }

/**
 * Sends one request and reads its whole body under one timer. Connection failures and timeouts
 * resolve as values (the loop decides whether to retry); the caller's abort rejects at once.
 *
 * Every attempt has its own AbortController, linked to the caller's signal and to the timer, so a
 * timeout or an abort closes the connection at once: an abandoned request would hold its
 * connection until the runtime gives up (undici: 300 s) and, in browsers, use up the few
 * connections allowed per origin. Never `AbortSignal.timeout` (its timer outlives the request)
 * nor `AbortSignal.any` (allocations per call).
 *
 * Redirects are not followed (`redirect: 'manual'`): following a 301/302/303 turns a POST into a
 * GET, and the service never redirects, so a redirect means baseUrl points somewhere else.
 */
export function attempt(input: AttemptInput): Promise<AttemptResult> {
  return new Promise((resolve, reject) => {
    const { signal } = input
    if (signal?.aborted) {
      reject(abortError(input, signal))
      return
    }
    const controller = new AbortController()
    let settled = false
    const settle = () => {
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onCallerAbort)
    }
    const timer = setTimeout(() => {
      if (settled) return
      settle()
      controller.abort()
      resolve({ ok: false, error: timeoutError(input) })
    }, input.budgetMs)
    const onCallerAbort = () => {
      if (settled) return
      settle()
      controller.abort()
      reject(abortError(input, signal as AbortSignal))
    }
    signal?.addEventListener('abort', onCallerAbort)

    const fail = (cause: unknown) => {
      if (settled) return
      settle()
      resolve({ ok: false, error: connectionError(input, cause) })
    }
    let sent: Promise<Response>
    try {
      // `Promise.resolve` also covers a custom fetch that returns something other than a promise.
      sent = Promise.resolve(
        input.fetch(input.url, {
          method: input.method,
          headers: input.headers,
          body: input.body ?? null,
          signal: controller.signal,
          redirect: 'manual',
        }),
      )
    } catch (cause) {
      // A custom fetch that throws instead of rejecting fails like any other network error.
      fail(cause)
      return
    }
    sent.then((response) => {
      // The try covers a custom fetch that resolved to something that is not a Response: a throw
      // here would otherwise be an unhandled rejection.
      try {
        if (settled) {
          // A fetch that ignores the signal answered after all: free the connection unread.
          response.body?.cancel().catch(() => {})
          return
        }
        // Reading the body is part of the attempt: a connection cut mid-body fails it too.
        response.text().then((text) => {
          if (settled) return
          settle()
          resolve({ ok: true, status: response.status, headers: response.headers, text })
        }, fail)
      } catch (cause) {
        fail(cause)
      }
    }, fail)
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
