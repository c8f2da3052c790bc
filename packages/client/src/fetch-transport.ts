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
    // `Promise.resolve().then` also turns a custom fetch that throws, or returns something other
    // than a promise, into a rejection like any network error.
    const answer = Promise.resolve()
      .then(() =>
        fetch(request.url, {
          method: request.method,
          headers: request.headers as Record<string, string>,
          body: request.body ?? null,
          signal: controller.signal,
          redirect: 'manual',
        }),
      )
      .then(async (response): Promise<HttpAnswer> => {
        if (cancelled) {
          // A fetch that ignores the signal answered after all: free the connection unread.
          response.body?.cancel().catch(() => {})
          throw new Error('cancelled')
        }
        // Reading the body is part of the attempt: a connection cut mid-body fails it too.
        const text = await response.text()
        const { headers } = response
        return {
          status: response.status,
          header: (name) => headers.get(name) ?? undefined,
          headers: () => headers,
          text,
        }
      })
    return {
      answer,
      cancel() {
        cancelled = true
        controller.abort()
      },
    }
  }
}
