import type { Agent, Dispatcher } from 'undici'
import type { SandboxClock } from '../clock'
import type { DeliveryRequest } from './delivery-request'

/** How an attempt went: the answer's status, or 0 and why none came. */
export interface TransportResult {
  status: number
  /** Why there was no answer: the system error code (`ECONNREFUSED`) or `timeout after 10 s`. */
  failure: string | undefined
}

export interface HttpTransport {
  /**
   * The status of the answer, or 0 when none came (refused, reset, timed out, TLS error).
   * `extraHeaders` (the signature) are added to the request's own.
   */
  send(request: DeliveryRequest, extraHeaders?: Record<string, string>): Promise<TransportResult>
  /** Aborts every request in flight and closes every connection, idle kept-alive ones included. */
  close(): Promise<void>
}

/**
 * Deliveries over undici's dispatcher API, through an agent this engine owns (one connection pool
 * per receiver origin, connections kept alive), so `close()` can end every socket. Measured
 * against node:http's kept-alive agent in bench/delivery, it spends about a third of the CPU per
 * delivery; its `request()` API (a response object and a body stream per request) sits between
 * the two. HTTP/1.1 pipelining is left off: with receivers that answer a connection's requests
 * one at a time (node:http, most frameworks) it saved little or nothing per delivery there, and a
 * slow or dropped answer would hold up or fail every delivery queued behind it on its connection.
 * Redirects are not followed: a redirect is a failed attempt.
 *
 * undici is loaded with the first delivery, not with the sandbox: it takes longer to load than a
 * test sandbox takes to start, and many never deliver.
 */
export function createUndiciTransport({
  timeoutMs,
  clock,
}: {
  timeoutMs: number
  clock: SandboxClock
}): HttpTransport {
  let agent: Agent | undefined
  let loading: Promise<Agent> | undefined
  let closed = false

  async function loadedAgent(): Promise<Agent> {
    loading ??= import('undici').then(({ Agent }) => {
      // undici's own timeouts stay far beyond the engine's deadline, which is on the sandbox's
      // clock (a test clock included) and covers connecting, the answer and its body at once.
      agent = new Agent({ connect: { timeout: timeoutMs } })
      return agent
    })
    return loading
  }

  async function send(
    delivery: DeliveryRequest,
    extraHeaders?: Record<string, string>,
  ): Promise<TransportResult> {
    const dispatcher = agent ?? (await loadedAgent())
    if (closed) return { status: 0, failure: 'the delivery engine closed' }
    return new Promise((resolve) => {
      let status = 0
      let failure: string | undefined = 'no answer'
      let settled = false
      /** Set once the request has a connection: what aborts it. */
      let controller: Dispatcher.DispatchController | undefined
      const settle = () => {
        if (settled) return
        settled = true
        resolve({ status, failure: status === 0 ? failure : undefined })
      }
      const finish = () => {
        cancelDeadline()
        settle()
      }
      // One deadline for the whole exchange: a status after it does not count, and a body still
      // streaming at it is cut off so a slow receiver cannot hold the connection. A request still
      // waiting for a connection at its deadline is aborted as soon as it gets one.
      let timedOut = false
      const cancelDeadline = clock.wakeAt(clock.now() + timeoutMs, () => {
        timedOut = true
        failure = `timeout after ${timeoutMs / 1000} s`
        settle()
        controller?.abort(new Error(failure))
      })
      dispatcher.dispatch(
        {
          origin: delivery.origin,
          path: delivery.path,
          method: 'POST',
          headers:
            extraHeaders === undefined
              ? delivery.headers
              : { ...delivery.headers, ...extraHeaders },
          body: delivery.body,
        },
        {
          onRequestStart(started) {
            controller = started
            if (timedOut) started.abort(new Error(failure))
          },
          onResponseStart(_controller, statusCode) {
            // 1xx answers are interim: the final status follows.
            if (statusCode >= 200) {
              status = statusCode
              settle()
            }
          },
          // The body is read and dropped.
          onResponseData() {},
          onResponseEnd: finish,
          onResponseError(_controller, error: NodeJS.ErrnoException) {
            failure = failureOf(error)
            finish()
          },
        },
      )
    })
  }

  let closing: Promise<void> | undefined
  function close() {
    closed = true
    // In flight or waiting for a connection, every request ends with an error, and so settles.
    closing ??= (async () => (await loading)?.destroy())()
    return closing
  }

  return { send, close }
}

/**
 * Why a request got no answer, for the attempt log: the system's code when the network failed
 * (`ECONNREFUSED`, `ENOTFOUND`), undici's own description otherwise ("other side closed").
 */
function failureOf(error: NodeJS.ErrnoException): string {
  const { code } = error
  if (code !== undefined && !code.startsWith('UND_ERR_')) return code
  const cause = error.cause as NodeJS.ErrnoException | undefined
  return cause?.code ?? error.message
}
