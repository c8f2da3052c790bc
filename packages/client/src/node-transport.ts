import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { urlToHttpOptions } from 'node:url'
import type { HttpAnswer, HttpTransport } from './http-transport'

export interface NodeTransportOptions {
  /**
   * The agent for `http:` URLs. Default: one kept-alive agent per transport, so calls reuse
   * their connections instead of paying a TCP (and TLS) handshake each.
   */
  httpAgent?: HttpAgent
  /** The agent for `https:` URLs. Default: one kept-alive agent per transport. */
  httpsAgent?: HttpsAgent
}

/**
 * A transport over `node:http` / `node:https` for `createClient({ transport })`: on Node it
 * sends a call with less work than `fetch` (no web streams, no `Request`/`Response` objects, a
 * header read without building `Headers`). Connections are kept alive and reused. Retries,
 * timeouts, aborts and errors are the client's, the same as over `fetch`; a timeout or an abort
 * destroys the request's socket. Redirects are not followed, like the fetch transport's.
 */
export function nodeTransport(options: NodeTransportOptions = {}): HttpTransport {
  const httpAgent = options.httpAgent ?? new HttpAgent({ keepAlive: true })
  const httpsAgent = options.httpsAgent ?? new HttpsAgent({ keepAlive: true })
  // A client calls one origin: its host and port are read from the URL once, not per request
  // (a transport shared by clients of many origins keeps the latest hundred).
  const origins = new Map<string, ReturnType<typeof urlToHttpOptions>>()
  return ({ method, url, headers, body }) => {
    const { origin, path } = splitUrl(url)
    let target = origins.get(origin)
    if (target === undefined) {
      target = urlToHttpOptions(new URL(origin))
      if (origins.size >= 100) origins.clear()
      origins.set(origin, target)
    }
    const secure = target.protocol === 'https:'
    const send = secure ? httpsRequest : httpRequest
    const request = send({
      ...target,
      path,
      method,
      agent: secure ? httpsAgent : httpAgent,
      headers:
        body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
    })
    const answer = new Promise<HttpAnswer>((resolve, reject) => {
      request.on('error', reject)
      request.once('response', (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
        })
        // A connection cut mid-body ends the response without completing it: that is a failure
        // of the attempt, as with fetch, not a short body.
        response.on('error', reject)
        response.once('end', () => {
          if (response.complete) resolve(answerOf(response, utf8Text(chunks)))
          else reject(new Error('the connection closed before the whole body arrived'))
        })
        response.once('aborted', () =>
          reject(new Error('the connection closed before the whole body arrived')),
        )
      })
    })
    request.end(body)
    return { answer, cancel: () => request.destroy() }
  }
}

/**
 * `http://host:port` and `/path?query` of an absolute URL, without parsing it: the client's URLs
 * are built from a checked base URL and encoded paths. A URL with a fragment or without a path is
 * left to the URL parser.
 */
function splitUrl(url: string): { origin: string; path: string } {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2)
  if (pathStart === -1 || url.includes('#')) {
    const parsed = new URL(url)
    return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` }
  }
  return { origin: url.slice(0, pathStart), path: url.slice(pathStart) }
}

// Decoded once at the end, so that a multi-byte character split between two chunks stays whole.
function utf8Text(chunks: Buffer[]): string {
  if (chunks.length === 1) return (chunks[0] as Buffer).toString('utf8')
  return Buffer.concat(chunks).toString('utf8')
}

function answerOf(response: IncomingMessage, text: string): HttpAnswer {
  const raw = response.headers
  let headers: Headers | undefined
  return {
    status: response.statusCode ?? 0,
    header: (name) => {
      const value = raw[name]
      return Array.isArray(value) ? value.join(', ') : value
    },
    headers: () => {
      headers ??= toHeaders(raw)
      return headers
    },
    text,
  }
}

function toHeaders(raw: IncomingMessage['headers']): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  return headers
}
