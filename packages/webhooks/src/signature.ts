import { WebhooksError } from './errors'
import { type HeaderSource, readHeader } from './headers'

/** One signing secret, or several while rotating (any of them may have signed the delivery). */
export type WebhookSecret = string | readonly string[]

export interface SignatureVerifierOptions {
  /** How far the `webhook-timestamp` may be from now, in either direction. Default 300 (5 min). */
  toleranceSeconds?: number
}

/**
 * Checks one delivery: its raw body text and its request headers, as Web `Headers` or Node's
 * `req.headers`. Resolves when a secret signed it, rejects with `invalid_signature`.
 */
export type SignatureVerifier = (
  payload: string,
  headers: HeaderSource,
  nowMs?: number,
) => Promise<void>

const DEFAULT_TOLERANCE_SECONDS = 5 * 60
const SECRET_PREFIX = 'whsec_'
// A legitimate header carries one signature per active secret; cap the work a forger can cause.
const MAX_SIGNATURES = 16
const encoder = new TextEncoder()

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com): HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${body}`, compared in constant time with every `v1,`
 * signature in `webhook-signature`. A secret starting with `whsec_` is base64 after the prefix
 * (the Standard Webhooks / Svix form); any other string is used as raw UTF-8 key bytes.
 */
export function createSignatureVerifier(
  secret: WebhookSecret,
  options: SignatureVerifierOptions = {},
): SignatureVerifier {
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new WebhooksError(
      'invalid_configuration',
      `toleranceSeconds must be a finite number of seconds >= 0; got ${String(toleranceSeconds)}.`,
    )
  }
  const secrets = typeof secret === 'string' ? [secret] : [...secret]
  if (secrets.length === 0) {
    throw new WebhooksError(
      'invalid_configuration',
      'secret is an empty list: pass at least one signing secret, or leave secret out.',
    )
  }
  const keyBytes = secrets.map(decodeSecret)
  // Imported on first use: createWebhooks stays synchronous and cheap for apps that never verify.
  let keys: Promise<CryptoKey[]> | undefined

  return async (payload, headers, nowMs = Date.now()) => {
    const id = readHeader(headers, 'webhook-id')
    const timestamp = readHeader(headers, 'webhook-timestamp')
    const signatureHeader = readHeader(headers, 'webhook-signature')
    if (!id || !timestamp || !signatureHeader) {
      throw invalid(
        'Missing webhook-id, webhook-timestamp or webhook-signature header. This endpoint has a secret configured, so every delivery must be signed (Standard Webhooks); check that the sender has the same secret.',
      )
    }
    checkTimestamp(timestamp, nowMs, toleranceSeconds)
    const candidates = parseSignatures(signatureHeader)
    if (candidates.length === 0) {
      throw invalid('webhook-signature carries no "v1,<base64>" signature.')
    }
    keys ??= Promise.all(keyBytes.map(importKey))
    let matched = false
    for (const key of await keys) {
      const expected = await hmac(key, id, timestamp, payload)
      for (const candidate of candidates) {
        // No early exit: every comparison runs, so timing does not tell which one matched.
        matched = constantTimeEqual(expected, candidate) || matched
      }
    }
    if (!matched) {
      throw invalid(
        'No webhook-signature matches the body and the configured secret(s). The body may have been altered, or the sender signs with a secret this endpoint does not have.',
      )
    }
  }
}

/** The Standard Webhooks MAC: HMAC-SHA256 over `${id}.${timestamp}.${payload}`. */
export async function hmac(
  key: CryptoKey,
  id: string,
  timestamp: string,
  payload: string,
): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${payload}`)),
  )
}

export function decodeSecret(secret: string, index = 0): Uint8Array<ArrayBuffer> {
  const where = `secret${index === 0 ? '' : `[${index}]`}`
  if (!secret.startsWith(SECRET_PREFIX)) {
    if (secret.length === 0) {
      throw new WebhooksError(
        'invalid_configuration',
        `${where} is empty: pass the signing secret.`,
      )
    }
    return encoder.encode(secret)
  }
  const bytes = decodeBase64(secret.slice(SECRET_PREFIX.length))
  if (bytes === undefined || bytes.length === 0) {
    throw new WebhooksError(
      'invalid_configuration',
      `${where} starts with "whsec_" but the rest is not non-empty base64; copy the whole secret as issued.`,
    )
  }
  return bytes
}

function checkTimestamp(timestamp: string, nowMs: number, toleranceSeconds: number) {
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw invalid(`webhook-timestamp must be whole seconds since the epoch; got "${timestamp}".`)
  }
  const skew = Math.floor(nowMs / 1000) - Number(timestamp)
  if (skew > toleranceSeconds) {
    throw invalid(
      `webhook-timestamp is ${skew} s old, more than the ${toleranceSeconds} s tolerance: a replayed delivery, or this server's clock is wrong.`,
    )
  }
  if (-skew > toleranceSeconds) {
    throw invalid(
      `webhook-timestamp is ${-skew} s in the future, more than the ${toleranceSeconds} s tolerance: check the sender's and this server's clocks.`,
    )
  }
}

function parseSignatures(header: string): Uint8Array[] {
  const signatures: Uint8Array[] = []
  for (const entry of header.split(' ').slice(0, MAX_SIGNATURES)) {
    if (!entry.startsWith('v1,')) continue
    const bytes = decodeBase64(entry.slice(3))
    if (bytes !== undefined) signatures.push(bytes)
  }
  return signatures
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
  } catch {
    return undefined
  }
}

export function importKey(bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
}

/** Compares every byte whatever the first difference; only the (public) length may exit early. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let index = 0; index < a.length; index++) {
    difference |= (a[index] as number) ^ (b[index] as number)
  }
  return difference === 0
}

function invalid(message: string) {
  return new WebhooksError('invalid_signature', message)
}
