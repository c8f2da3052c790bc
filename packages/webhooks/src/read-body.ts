import { WebhooksError } from './errors'

/** A delivery body is `{"id","type"}`: anything near this size is not one. */
export const MAX_BODY_BYTES = 64 * 1024

export function payloadTooLarge() {
  return new WebhooksError(
    'payload_too_large',
    `The body is over ${MAX_BODY_BYTES} bytes; a delivery only carries an event id and type.`,
  )
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
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_BODY_BYTES) {
      await reader.cancel()
      throw payloadTooLarge()
    }
    chunks.push(value)
  }
  return decodeChunks(chunks, size)
}

/** Joins byte chunks and decodes them as UTF-8 (what Standard Webhooks signs). */
export function decodeChunks(chunks: readonly Uint8Array[], size: number): string {
  if (chunks.length === 1) return decoder.decode(chunks[0])
  const joined = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    joined.set(chunk, offset)
    offset += chunk.byteLength
  }
  return decoder.decode(joined)
}

const decoder = new TextDecoder()
