import type { MiddlewareHandler } from 'hono'

/** The shop's forms are a few short fields; 16 KB is far more than any of them. */
export const maxFormBytes = 16 * 1024

/**
 * Refuses request bodies over `limit` bytes with 413 before any route reads them. Bytes are
 * counted as they arrive (a chunked body announces no length), and reading stops at the limit,
 * so a client cannot make the shop hold more. The route reads the buffered copy. Exempt paths
 * read their bodies with their own limit (the webhook receiver does).
 */
export function bodyLimit(limit: number, exemptPaths: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const { raw } = c.req
    if (raw.method === 'GET' || raw.method === 'HEAD' || exemptPaths.includes(c.req.path)) {
      return next()
    }
    if (raw.body === null) return next()
    const tooLarge = () =>
      c.text(`The form is too large: send at most ${limit} bytes.`, 413, {
        connection: 'close',
      })
    if (Number(raw.headers.get('content-length') ?? 0) > limit) return tooLarge()
    const chunks: Uint8Array[] = []
    let size = 0
    const reader = raw.body.getReader()
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength
      if (size > limit) {
        await reader.cancel()
        return tooLarge()
      }
      chunks.push(read.value)
    }
    c.req.raw = new Request(raw.url, {
      method: raw.method,
      headers: raw.headers,
      body: Buffer.concat(chunks),
    })
    return next()
  }
}
