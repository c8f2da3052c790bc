import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import { invalidBody, payloadTooLarge, unsupportedMediaType } from './api-problem'
import { parseFormBody } from './form-body'
import { fieldLabel, type IntegrationWarnings } from './integration-warnings'
import { requestHeader } from './request-header'
import type { SandboxEnv } from './sandbox-env'

/** API request bodies over 1 MB are refused with 413. */
export const maxBodyBytes = 1024 * 1024

/** Bodies of the pages outside the API (dashboard forms) over 16 KB are refused with 413. */
export const maxPageBodyBytes = 16 * 1024

/**
 * Reads the raw body as text, refusing more than `limit` bytes before reading them all (by
 * Content-Length when sent, by counting otherwise). An empty body reads as ''. Ours rather than
 * hono's bodyLimit, which buffers a web stream: reading node's request directly is what keeps
 * an API call cheap.
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

/** Deeper than any request of the API, by far; deeper bodies are refused before any work. */
export const maxBodyDepth = 20

const jsonType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i
const formType = /^application\/x-www-form-urlencoded\s*(?:;|$)/i

/**
 * The value of a request body as the production service reads it; undefined when there is none.
 * A JSON content type must carry JSON. Another content type may carry JSON too (PHP's cURL sends
 * `application/x-www-form-urlencoded` by default): it is read as JSON, with a warning. A form
 * body that is not JSON is read as form fields ({@link parseFormBody}), with a warning. Anything
 * else is 415. Every body is refused (400) beyond {@link maxBodyDepth} levels of nesting.
 */
export function parseRequestBody(
  c: Context<SandboxEnv>,
  text: string,
  warnings: IntegrationWarnings,
): unknown {
  if (text.trim() === '') return undefined
  const type = requestHeader(c, 'content-type') ?? ''
  let value = parseJson(text)
  if (jsonType.test(type)) {
    if (value === notJson) {
      throw invalidBody('Expected a JSON object, but the body is not valid JSON')
    }
  } else if (value !== notJson) {
    warnings.add({
      code: 'json_with_other_content_type',
      message: `The body is JSON sent as ${describeType(type)}: read as JSON`,
      instead: 'Content-Type: application/json',
    })
  } else if (formType.test(type)) {
    value = parseFormBody(text, maxBodyDepth)
    warnings.add({
      code: 'form_body',
      message: 'The body is form fields: read as fields, each value a string',
      instead: 'a JSON body with Content-Type: application/json',
    })
  } else {
    throw unsupportedMediaType()
  }
  if (isNestedDeeperThan(value, maxBodyDepth)) {
    throw invalidBody(`Expected a body nested at most ${maxBodyDepth} levels deep`)
  }
  return value
}

const notJson = Symbol('not JSON')

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return notJson
  }
}

function describeType(type: string): string {
  const essence = type.split(';')[0]?.trim() ?? ''
  return essence === '' ? 'no Content-Type' : `Content-Type ${fieldLabel([essence.slice(0, 60)])}`
}

/** Whether objects and lists nest deeper than `limit`, checked without recursion. */
function isNestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]]
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    const [item, depth] = entry
    if (typeof item !== 'object' || item === null) continue
    if (depth > limit) return true
    for (const child of Object.values(item)) pending.push([child, depth + 1])
  }
  return false
}
