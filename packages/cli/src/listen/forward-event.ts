import type { Event } from '@chargekit/client'
import { signDelivery } from '@chargekit/webhooks'
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
  /** Why it failed: `ECONNREFUSED`, `timeout after 10 s`, or a non-2xx status's body's first line. */
  failure: string | undefined
}

/**
 * POSTs the event to the local receiver exactly as the service delivers it: the compact form as
 * the JSON body, `event` and `event_type` on the query, the signature headers with a secret.
 * Redirects are not followed: for the service a redirect is a failed delivery.
 */
export async function forwardEvent(event: Event, options: ForwardOptions): Promise<ForwardResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const timeout = AbortSignal.timeout(options.timeoutMs)
  try {
    const delivery = await signDelivery({
      event,
      url: options.url,
      ...(options.secret === undefined ? {} : { secret: options.secret }),
    })
    const response = await fetch(delivery.url, {
      method: delivery.method,
      headers: { ...delivery.headers, 'user-agent': `chargekit-cli/${VERSION}` },
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.any([options.signal, timeout]),
    })
    const body = await response.text()
    const status = response.status
    if (status >= 200 && status < 300) return { status, durationMs: elapsed(), failure: undefined }
    return { status, durationMs: elapsed(), failure: failureOf(response, body) }
  } catch (error) {
    const failure = timeout.aborted
      ? `timeout after ${options.timeoutMs / 1000} s`
      : causeOf(error)
    return { status: undefined, durationMs: elapsed(), failure }
  }
}

/** `500 first line of the body`, or where a redirect pointed. */
function failureOf(response: Response, body: string): string {
  const location = response.headers.get('location')
  if (location !== null) return `${response.status} redirect to ${location} (not followed)`
  const firstLine = body.trim().split(/\r?\n/, 1)[0] ?? ''
  const shown = firstLine.length > 120 ? `${firstLine.slice(0, 119)}…` : firstLine
  return `${response.status}${shown === '' ? '' : ` ${shown}`}`
}

/** The system error code (`ECONNREFUSED`, `ENOTFOUND`) fetch hides in its cause, else the message. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause
  if (typeof cause?.code === 'string') return cause.code
  if (typeof cause?.message === 'string') return cause.message
  return error instanceof Error ? error.message : String(error)
}
