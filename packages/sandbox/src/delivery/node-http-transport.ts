import { type ClientRequest, Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
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
  /** Aborts every request in flight and destroys every socket, idle keep-alive ones included. */
  close(): void
}

/**
 * Node-only: deliveries go through agents this engine owns, so `close()` can end every socket
 * (fetch's shared global dispatcher would keep them). node:http never follows redirects: a
 * redirect is a failed attempt.
 */
export function createHttpTransport({
  timeoutMs,
  clock,
}: {
  timeoutMs: number
  clock: SandboxClock
}): HttpTransport {
  const agentOptions = { keepAlive: true, scheduling: 'lifo' as const }
  const httpAgent = new HttpAgent(agentOptions)
  const httpsAgent = new HttpsAgent(agentOptions)
  const inFlight = new Set<ClientRequest>()

  function send(
    delivery: DeliveryRequest,
    extraHeaders?: Record<string, string>,
  ): Promise<TransportResult> {
    return new Promise((resolve) => {
      const { secure, target, body } = delivery
      let request: ClientRequest
      try {
        request = (secure ? httpsRequest : httpRequest)({
          ...target,
          method: 'POST',
          agent: secure ? httpsAgent : httpAgent,
          headers:
            extraHeaders === undefined
              ? delivery.headers
              : { ...delivery.headers, ...extraHeaders },
        })
      } catch (error) {
        // An events_url node:http still cannot request (a host name it rejects) is a failed attempt.
        resolve({ status: 0, failure: (error as NodeJS.ErrnoException).code ?? 'invalid URL' })
        return
      }
      let status = 0
      let failure: string | undefined = 'no answer'
      let settled = false
      const settle = () => {
        if (settled) return
        settled = true
        resolve({ status, failure: status === 0 ? failure : undefined })
      }
      const finish = () => {
        cancelDeadline()
        inFlight.delete(request)
        settle()
      }
      // One deadline for the whole exchange: a status after it does not count, and a body still
      // streaming at it is cut off so a slow receiver cannot hold the socket.
      const cancelDeadline = clock.wakeAt(clock.now() + timeoutMs, () => {
        failure = `timeout after ${timeoutMs / 1000} s`
        settle()
        request.destroy()
      })
      inFlight.add(request)
      request.on('response', (response) => {
        if (!settled) status = response.statusCode ?? 0
        settle()
        // The body is drained and dropped; the request's 'close' follows its end.
        response.on('error', finish)
        response.resume()
      })
      request.on('error', (error: NodeJS.ErrnoException) => {
        failure = error.code ?? error.message
        finish()
      })
      request.on('close', finish)
      request.end(body)
    })
  }

  function close() {
    for (const request of inFlight) request.destroy()
    inFlight.clear()
    httpAgent.destroy()
    httpsAgent.destroy()
  }

  return { send, close }
}
