import fc from 'fast-check'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { WebhooksError } from './errors'
import { createSignatureVerifier } from './signature'

const secret = `whsec_${btoa('a 32-byte signing key, for tests')}`
const body = '{"id":"ev_1","type":"payment.success"}'

/** Signs with the reference implementation, the way a Standard Webhooks sender does. */
function signedHeaders(key: string, payload: string, at = new Date(), id = 'ev_1', raw = false) {
  const signer = raw ? new Webhook(key, { format: 'raw' }) : new Webhook(key)
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer.sign(id, at, payload),
  }
}

async function rejection(promise: Promise<unknown>): Promise<WebhooksError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(WebhooksError)
  expect((error as WebhooksError).code).toBe('invalid_signature')
  expect((error as WebhooksError).status).toBe(401)
  return error as WebhooksError
}

describe('createSignatureVerifier (against the standardwebhooks reference)', () => {
  it('accepts a whsec_ signature made by the reference library', async () => {
    const verify = createSignatureVerifier(secret)
    await expect(verify(body, signedHeaders(secret, body))).resolves.toBeUndefined()
  })

  it('accepts a raw (non-whsec_) secret as its UTF-8 bytes', async () => {
    const raw = 'plain-text secret'
    const verify = createSignatureVerifier(raw)
    const headers = signedHeaders(raw, body, new Date(), 'ev_1', true)
    await expect(verify(body, headers)).resolves.toBeUndefined()
  })

  it('reads Web Headers as well as Node header records', async () => {
    const verify = createSignatureVerifier(secret)
    const headers = new Headers(signedHeaders(secret, body))
    await expect(verify(body, headers)).resolves.toBeUndefined()
  })

  it('rejects an altered body, another id and another secret', async () => {
    const verify = createSignatureVerifier(secret)
    const headers = signedHeaders(secret, body)
    const altered = await rejection(verify(body.replace('ev_1', 'ev_2'), headers))
    expect(altered.message).toMatch(/No webhook-signature matches/)
    await rejection(verify(body, { ...headers, 'webhook-id': 'ev_2' }))
    const other = createSignatureVerifier(`whsec_${btoa('another key entirely')}`)
    await rejection(other(body, headers))
  })

  it('reads the headers from Web Headers or from a Node-style record in any letter case', async () => {
    const verify = createSignatureVerifier(secret)
    const headers = signedHeaders(secret, body)
    await expect(verify(body, new Headers(headers))).resolves.toBeUndefined()
    const titleCase = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name.replace(
          /(^|-)([a-z])/g,
          (_, dash: string, letter: string) => dash + letter.toUpperCase(),
        ),
        value,
      ]),
    )
    expect(Object.keys(titleCase)).toContain('Webhook-Signature')
    await expect(verify(body, titleCase)).resolves.toBeUndefined()
    await rejection(verify(body, new Headers({ ...headers, 'webhook-id': 'ev_2' })))
  })

  it('accepts any of several secrets, and any of several signatures (rotation)', async () => {
    const next = `whsec_${btoa('the next signing key')}`
    const verify = createSignatureVerifier([next, secret])
    await expect(verify(body, signedHeaders(secret, body))).resolves.toBeUndefined()
    await expect(verify(body, signedHeaders(next, body))).resolves.toBeUndefined()
    const both = signedHeaders(next, body)
    both['webhook-signature'] = `v1,${btoa('not it')} ${both['webhook-signature']}`
    await expect(createSignatureVerifier(next)(body, both)).resolves.toBeUndefined()
  })

  it('checks the timestamp tolerance in both directions', async () => {
    const verify = createSignatureVerifier(secret)
    const now = Date.now()
    const old = signedHeaders(secret, body, new Date(now - 301_000))
    expect((await rejection(verify(body, old, now))).message).toMatch(/s old/)
    const future = signedHeaders(secret, body, new Date(now + 301_000))
    expect((await rejection(verify(body, future, now))).message).toMatch(/in the future/)
    const edge = signedHeaders(secret, body, new Date(now - 299_000))
    await expect(verify(body, edge, now)).resolves.toBeUndefined()
    const strict = createSignatureVerifier(secret, { toleranceSeconds: 10 })
    await rejection(strict(body, signedHeaders(secret, body, new Date(now - 60_000)), now))
  })

  it('rejects missing headers, a malformed timestamp and a header without v1 signatures', async () => {
    const verify = createSignatureVerifier(secret)
    const headers = signedHeaders(secret, body)
    expect((await rejection(verify(body, {}))).message).toMatch(/Missing webhook-id/)
    await rejection(verify(body, { ...headers, 'webhook-timestamp': '12.5' }))
    const v2 = {
      ...headers,
      'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,'),
    }
    expect((await rejection(verify(body, v2))).message).toMatch(/no "v1,/)
  })

  it('refuses unusable secrets up front', () => {
    expect(() => createSignatureVerifier([])).toThrow(/empty list/)
    expect(() => createSignatureVerifier('')).toThrow(/empty/)
    expect(() => createSignatureVerifier('whsec_!!notbase64')).toThrow(/not non-empty base64/)
    expect(() => createSignatureVerifier(secret, { toleranceSeconds: -1 })).toThrow(
      /toleranceSeconds/,
    )
  })

  it('agrees with the reference for any key, id and body (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.nat({ max: 31 }),
        async (keyBytes, id, payload, flip) => {
          const key = `whsec_${btoa(String.fromCharCode(...keyBytes))}`
          const headers = signedHeaders(key, payload, new Date(), id)
          const verify = createSignatureVerifier(key)
          await expect(verify(payload, headers)).resolves.toBeUndefined()
          // Any single flipped bit of the MAC is caught.
          const mac = Uint8Array.from(atob(headers['webhook-signature'].slice(3)), (c) =>
            c.charCodeAt(0),
          )
          mac[flip] = (mac[flip] as number) ^ 1
          const forged = {
            ...headers,
            'webhook-signature': `v1,${btoa(String.fromCharCode(...mac))}`,
          }
          await rejection(verify(payload, forged))
        },
      ),
      { numRuns: 60 },
    )
  })
})
