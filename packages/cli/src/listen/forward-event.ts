import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Event } from '@chargekit/client'
import { type SignedDelivery, signDelivery } from '@chargekit/webhooks'
import { VERSION } from '../version'

export interface ForwardOptions {
  /** The local receiver, e.g. http://localhost:3000/webhooks. */
  url: string
  /** Signs each delivery with Standard Webhooks headers, as the service does when it has a secret. */
  secret?: string | undefined
  /** An attempt not answered within this long fails, as the service's would. */
  timeoutMs: number
  signal: AbortSignal
}

/** How one forward went: the receiver's status, or why there was none. */
export interface ForwardResult {
  /** The HTTP status; undefined when no answer came. */
  status: number | undefined
  durationMs: number
  /** Why it failed: `ECONNREFUSED`, `timeout after 10 s`, or a non-2xx status and its body's first line. */
  failure: string | undefined
}

/** How much of a failed answer's body is read, for its first line. */
const maxBodyBytes = 16 * 1024

/**
 * POSTs the event to the local receiver exactly as the service delivers it: the compact form as
 * the JSON body, `event` and `event_type` on the query, the signature headers with a secret.
 * node:http rather than fetch: it sends only these headers, reaches any port (fetch refuses
 * some, such as 6000), and never follows a redirect, which for the service is a failed delivery.
 */
export async function forwardEvent(event: Event, options: ForwardOptions): Promise<ForwardResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  let delivery: SignedDelivery
  try {
    delivery = await signDelivery({
      event,
      url: options.url,
      ...(options.secret === undefined ? {} : { secret: options.secret }),
    })
  } catch (error) {
    // An event the service returned without its charge cannot be put in the compact form.
    return { status: undefined, durationMs: elapsed(), failure: (error as Error).message }
  }
  const body = Buffer.from(delivery.body)
  const send = delivery.url.startsWith('https:') ? httpsRequest : httpRequest
  return new Promise((resolve) => {
    const finish = (status: number | undefined, failure: string | undefined) => {
      clearTimeout(deadline)
      resolve({ status, durationMs: elapsed(), failure })
    }
    const request = send(delivery.url, {
      method: delivery.method,
      headers: {
        ...delivery.headers,
        'content-length': String(body.length),
        'user-agent': `chargekit-cli/${VERSION}`,
      },
      signal: options.signal,
    })
    const deadline = setTimeout(() => {
      finish(undefined, `timeout after ${options.timeoutMs / 1000} s`)
      request.destroy()
    }, options.timeoutMs)
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(undefined, error.code ?? error.message),
    )
    request.on('response', (response) => {
      const status = response.statusCode ?? 0
      if (status >= 200 && status < 300) {
        response.resume()
        return finish(status, undefined)
      }
      readStart(response).then((text) => finish(status, failureOf(response, text)))
    })
    request.end(body)
  })
}

/** The first bytes of a body, then the rest dropped. */
function readStart(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'))
    response.on('data', (chunk: Buffer) => {
      if (size < maxBodyBytes) chunks.push(chunk)
      size += chunk.length
    })
    response.on('end', done)
    response.on('error', done)
  })
}

/** `500 first line of the body`, or where a redirect pointed. */
function failureOf(response: IncomingMessage, body: string): string {
  const status = response.statusCode ?? 0
  const location = response.headers.location
  if (location !== undefined) return `${status} redirect to ${location} (not followed)`
  const firstLine = body.trim().split(/\r?\n/, 1)[0] ?? ''
  const shown = firstLine.length > 120 ? `${firstLine.slice(0, 119)}…` : firstLine
  return `${status}${shown === '' ? '' : ` ${shown}`}`
}
