import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import { invalidBody, payloadTooLarge, unsupportedMediaType } from '../api-problem'
import { requestHeader } from './request-header'
import type { SandboxEnv } from './sandbox-env'

/** DESIGN §4: request bodies over 1 MB are refused with 413. */
export const maxBodyBytes = 1024 * 1024

/**
 * Reads the raw body as text, refusing more than `limit` bytes before reading them all (by
 * Content-Length when sent, by counting otherwise). An empty body reads as ''.
 */
export async function readBodyText(c: Context<SandboxEnv>, limit: number): Promise<string> {
  const declared = Number(requestHeader(c, 'content-length') ?? Number.NaN)
  if (declared > limit) throw payloadTooLarge(limit)
  // Over a socket, read node's request directly: building a web ReadableStream for the body
  // costs more than the rest of a create-charge request.
  const incoming = c.env?.incoming
  if (incoming !== undefined) return readIncoming(incoming, limit)
  const stream = c.req.raw.body
  if (stream === null) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw payloadTooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function readIncoming(incoming: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > limit) {
        // Stop collecting; node discards the rest once the 413 is sent.
        incoming.off('data', onData)
        reject(payloadTooLarge(limit))
        return
      }
      chunks.push(chunk)
    }
    incoming.on('data', onData)
    incoming.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    incoming.once('error', reject)
  })
}

/** The JSON value of a request body; undefined when there is none. Only JSON is accepted (415). */
export function parseJsonBody(c: Context<SandboxEnv>, text: string): unknown {
  if (text.trim() === '') return undefined
  const type = requestHeader(c, 'content-type') ?? ''
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw unsupportedMediaType()
  }
  try {
    return JSON.parse(text)
  } catch {
    throw invalidBody('Expected a JSON object, but the body is not valid JSON')
  }
}
