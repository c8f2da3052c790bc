import { BoundedBody, decodeUtf8, payloadTooLarge } from './read-body'

/** What the middleware reads from node:http's `IncomingMessage` (Express's `req` is one). */
export interface NodeRequest {
  method?: string | undefined
  url?: string | undefined
  /** Express: the URL before a mount path was stripped from `url`. */
  originalUrl?: string | undefined
  headers: Readonly<Record<string, string | readonly string[] | undefined>>
  /** Set by a body parser that ran first (object, string or Buffer). */
  body?: unknown
  /** Set by raw-body plugins; preferred over `body` because signatures cover the exact bytes. */
  rawBody?: unknown
  /** True once the body stream was read to its end, e.g. by a body parser. */
  readableEnded?: boolean | undefined
  /** Used for 'data', 'end' and 'error' (typed loosely so Node's overloads match). */
  on(event: string, listener: (...args: never[]) => void): unknown
}

/**
 * The exact bytes when the stream is still unread; otherwise (a body parser consumed it) the
 * parser's raw body, or its parsed value written back as text. Re-encoding JSON gives the sent
 * bytes for compact JSON like the service's `{"id":…,"type":…}`; for signatures over other
 * formatting, keep a raw body (`rawBody`) or mount the middleware before the parser.
 */
export function readNodeBody(
  req: NodeRequest,
  parsed: { body?: unknown; rawBody?: unknown },
): Promise<string> {
  if (req.readableEnded !== true) return readStream(req)
  const value = parsed.rawBody ?? parsed.body
  return Promise.resolve(
    value === undefined ? '' : textOf(value, String(req.headers['content-type'] ?? '')),
  )
}

function readStream(req: NodeRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    const body = new BoundedBody()
    let finished = false
    const finish = (outcome: () => void) => {
      if (finished) return
      finished = true
      outcome()
    }
    req.on('data', (chunk: Uint8Array | string) => {
      if (finished) return // over the limit: the rest is drained and dropped
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk
      if (!body.add(bytes)) finish(() => reject(payloadTooLarge()))
    })
    req.on('end', () => finish(() => resolve(body.text())))
    req.on('error', (error: Error) => finish(() => reject(error)))
  })
}

function textOf(value: unknown, contentType: string): string {
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return decodeUtf8(value)
  if (contentType.includes('application/x-www-form-urlencoded') && typeof value === 'object') {
    const form = new URLSearchParams()
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      for (const item of Array.isArray(field) ? field : [field]) form.append(key, String(item))
    }
    return form.toString()
  }
  return JSON.stringify(value)
}

const encoder = new TextEncoder()
