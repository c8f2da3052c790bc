import { createHmac, createSecretKey } from 'node:crypto'
import { SandboxError } from '../errors'

const secretPrefix = 'whsec_'

export type DeliverySigner = (eventId: string, at: Date, body: string) => Record<string, string>

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. A `whsec_` secret carries its key in base64,
 * like Svix's; any other string is used as the raw key bytes (UTF-8).
 */
export function createDeliverySigner(secret: string): DeliverySigner {
  // A key object, made once: given the key's bytes, every HMAC would import them again.
  const key = createSecretKey(signingKey(secret))
  return (eventId, at, body) => {
    // The timestamp is the attempt's, not the event's: receivers reject signatures older than
    // a few minutes, and retries come hours later.
    const timestamp = String(Math.floor(at.getTime() / 1000))
    const signature = createHmac('sha256', key)
      .update(`${eventId}.${timestamp}.${body}`)
      .digest('base64')
    return {
      'webhook-id': eventId,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    }
  }
}

function signingKey(secret: string): Buffer {
  if (!secret.startsWith(secretPrefix)) {
    if (secret.length === 0) {
      throw new SandboxError(
        'signingSecret is empty: pass whsec_<base64 key> or a non-empty raw secret string',
      )
    }
    return Buffer.from(secret, 'utf8')
  }
  const encoded = secret.slice(secretPrefix.length)
  if (encoded.length === 0 || encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new SandboxError(
      'signingSecret starts with whsec_ but the rest is not base64: pass whsec_ followed by the base64 key bytes',
    )
  }
  return Buffer.from(encoded, 'base64')
}
