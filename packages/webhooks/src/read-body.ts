import { WebhooksError } from './errors'

/** A delivery body is `{"id","type"}`: anything near this size is not one. */
const MAX_BODY_BYTES = 64 * 1024

export function payloadTooLarge() {
  return new WebhooksError(
    'payload_too_large',
    `The body is over ${MAX_BODY_BYTES} bytes; a delivery only carries an event id and type.`,
  )
}

/** Collects a body's chunks while they stay within `MAX_BODY_BYTES`, for any stream API. */
export class BoundedBody {
  readonly #chunks: Uint8Array[] = []
  #size = 0

  /** Keeps `chunk` and returns true, or returns false once the body is over the limit. */
  add(chunk: Uint8Array): boolean {
    this.#size += chunk.byteLength
    if (this.#size > MAX_BODY_BYTES) return false
    this.#chunks.push(chunk)
    return true
  }

  /** The body decoded as UTF-8 (what Standard Webhooks signs). */
  text(): string {
    if (this.#chunks.length === 1) return decodeUtf8(this.#chunks[0] as Uint8Array)
    const joined = new Uint8Array(this.#size)
    let offset = 0
    for (const chunk of this.#chunks) {
      joined.set(chunk, offset)
      offset += chunk.byteLength
    }
    return decodeUtf8(joined)
  }
}

/** Reads a Web `Request` body as text, stopping as soon as it passes `MAX_BODY_BYTES`. */
export async function readRequestBody(request: Request): Promise<string> {
  if (request.bodyUsed) {
    throw new WebhooksError(
      'internal_error',
      'The request body was already read before handleRequest: pass the untouched Request (in Hono, c.req.raw before any c.req.json() or c.req.text()).',
    )
  }
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw payloadTooLarge()
  // With a declared, acceptable length the runtime's own reader is the fast path.
  if (declared !== null || request.body === null) return request.text()
  const reader = request.body.getReader()
  const body = new BoundedBody()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return body.text()
    if (!body.add(value)) {
      await reader.cancel()
      throw payloadTooLarge()
    }
  }
}

/**
 * Whether body text handed over as a string is over `MAX_BODY_BYTES` as the UTF-8 bytes it was
 * sent as. A UTF-16 code unit takes 1 to 3 bytes, so only lengths in between need encoding.
 */
export function isOverBodyLimit(text: string): boolean {
  if (text.length > MAX_BODY_BYTES) return true
  if (text.length * 3 <= MAX_BODY_BYTES) return false
  return encoder.encode(text).byteLength > MAX_BODY_BYTES
}

export function decodeUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()
