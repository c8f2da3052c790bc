import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../src/index'
import { authorization, startTestSandbox, type TestSandbox } from '../src/testing/index'

let harnesses: TestSandbox[] = []
let open: Sandbox
let listed: Sandbox
const shopOrigin = 'http://shop.test:8080'

beforeAll(async () => {
  harnesses = await Promise.all([
    startTestSandbox(),
    startTestSandbox({ corsOrigins: [shopOrigin] }),
  ])
  ;[open, listed] = harnesses.map((harness) => harness.sandbox) as [Sandbox, Sandbox]
})
afterAll(() => Promise.all(harnesses.map((harness) => harness.close())))

const publicAuth = authorization('pk_sandbox', '')

function preflight(sandbox: Sandbox, origin: string, requestHeaders: string) {
  return fetch(`${sandbox.apiUrl}/instruments`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': requestHeaders,
    },
  })
}

describe('CORS on /v2', () => {
  it('answers a preflight 204 without credentials, allowing the API headers and x-* headers', async () => {
    const answer = await preflight(
      open,
      'https://anywhere.example',
      'authorization,content-type,idempotency-key,x-library-version,x-requested-with,not-ours',
    )
    expect(answer.status).toBe(204)
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://anywhere.example')
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE')
    const allowed = answer.headers.get('access-control-allow-headers')?.split(', ') ?? []
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'idempotency-key',
        'x-library-version',
        'x-requested-with',
      ]),
    )
    expect(allowed).not.toContain('not-ours')
    expect(answer.headers.get('vary')).toContain('Origin')
  })

  it('names the origin on every answer, errors included, and exposes the request id', async () => {
    const ok = await fetch(`${open.apiUrl}/charges/types/`, {
      headers: { origin: shopOrigin, authorization: publicAuth },
    })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBe(shopOrigin)
    expect(ok.headers.get('access-control-expose-headers')).toBe(
      'request-id, chargekit-integration-warnings, idempotent-replayed, retry-after',
    )
    expect(ok.headers.get('chargekit-integration-warnings')).toContain('trailing_slash')
    expect(ok.headers.get('vary')).toBe('Origin')
    await ok.arrayBuffer()
    for (const wrongOrRight of [authorization('pk_wrong', ''), publicAuth]) {
      // 401 for a wrong key, 403 for a route the public key may not call: both readable.
      const refused = await fetch(`${open.apiUrl}/events`, {
        headers: { origin: shopOrigin, authorization: wrongOrRight },
      })
      expect([401, 403]).toContain(refused.status)
      expect(refused.headers.get('access-control-allow-origin')).toBe(shopOrigin)
      expect(refused.headers.get('request-id')).toMatch(/^req_/)
      await refused.arrayBuffer()
    }
  })

  it('with corsOrigins, allows only the listed origins', async () => {
    const allowed = await preflight(listed, shopOrigin, 'authorization')
    expect(allowed.headers.get('access-control-allow-origin')).toBe(shopOrigin)
    const other = await preflight(listed, 'https://evil.example', 'authorization')
    expect(other.status).toBe(204)
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    expect(other.headers.get('access-control-allow-headers')).toBeNull()
    const call = await fetch(`${listed.apiUrl}/charges/types`, {
      headers: { origin: 'https://evil.example', authorization: publicAuth },
    })
    expect(call.headers.get('access-control-allow-origin')).toBeNull()
    await call.arrayBuffer()
  })

  it.each([['https://shop.example/'], ['shop.example'], ['https://shop.example/checkout']])(
    'refuses %s as a CORS origin',
    async (origin) => {
      await expect(startSandbox({ port: 0, corsOrigins: [origin] })).rejects.toThrow(
        `startSandbox: corsOrigins.0 is not an origin; expected scheme://host[:port] with no path, such as https://shop.example; got "${origin}"`,
      )
    },
  )
})
