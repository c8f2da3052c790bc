/** One HTTP request of an attempt, as the client sends it on any transport. */
export interface HttpRequest {
  method: string
  url: string
  headers: Readonly<Record<string, string>>
  /** JSON text for POST; undefined for GET and DELETE. */
  body: string | undefined
}

/** A whole answer: status, headers and the body read to its end. */
export interface HttpAnswer {
  status: number
  /** One header by its lower-case name; read without building a `Headers` object. */
  header(name: string): string | undefined
  /** Every header, built when first asked (`withResponse()`, errors): most calls never ask. */
  headers(): Headers
  text: string
}

/** A request on its way; `cancel()` closes its connection (on timeout or the caller's abort). */
export interface HttpExchange {
  answer: Promise<HttpAnswer>
  cancel(): void
}

/**
 * How the client reaches the service: sends one request, reads the whole answer, and can close the
 * connection at any moment. The client brings the retries, timeouts, aborts and errors on top, so
 * every transport behaves the same. On Node the default is `nodeTransport` (exported from
 * `@chargekit/client/node`), which talks `node:http` directly; elsewhere `fetchTransport`.
 */
export type HttpTransport = (request: HttpRequest) => HttpExchange
