import type { FetchLike } from './client-options'
import type { HttpAnswer, HttpTransport } from './http-transport'

/**
 * The transport over `fetch` (the global one or the caller's). Each request has its own
 * AbortController so that `cancel()` closes its connection at once: an abandoned request would
 * hold the connection until the runtime gives up (undici: 300 s) and, in browsers, use up the few
 * connections allowed per origin. Never `AbortSignal.timeout` (its timer outlives the request)
 * nor `AbortSignal.any` (allocations per call).
 *
 * Redirects are not followed (`redirect: 'manual'`): following a 301/302/303 turns a POST into a
 * GET, and the service never redirects, so a redirect means baseUrl points somewhere else.
 */
export function fetchTransport(fetch: FetchLike): HttpTransport {
  return (request) => {
    const controller = new AbortController()
    let cancelled = false
    const cancel = () => {
      cancelled = true
      controller.abort()
    }
    let sent: Promise<Response>
    try {
      // `Promise.resolve` also covers a custom fetch that returns something other than a promise.
      sent = Promise.resolve(
        fetch(request.url, {
          method: request.method,
          headers: request.headers as Record<string, string>,
          body: request.body ?? null,
          signal: controller.signal,
          redirect: 'manual',
        }),
      )
    } catch (cause) {
      // A custom fetch that throws instead of rejecting fails like any other network error.
      return { answer: Promise.reject(cause), cancel }
    }
    const answer = sent.then((response): Promise<HttpAnswer> => {
      if (cancelled) {
        // A fetch that ignores the signal answered after all: free the connection unread.
        response.body?.cancel().catch(() => {})
        return Promise.reject(new Error('cancelled'))
      }
      // Reading the body is part of the attempt: a connection cut mid-body fails it too.
      return response.text().then((text) => {
        const { headers } = response
        return {
          status: response.status,
          header: (name) => headers.get(name) ?? undefined,
          headers: () => headers,
          text,
        }
      })
    })
    return { answer, cancel }
  }
}
