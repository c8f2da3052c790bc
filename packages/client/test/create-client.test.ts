import { authorization } from '@chargekit/sandbox/testing'
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ChargekitError, type ClientOptions, createClient, VERSION } from '../src/index'
import { createClient as createClientOnNode } from '../src/index.node'
import { startRecordingServer } from './support/recording-server'

const valid = {
  accountId: 'acct_test',
  privateKey: 'sk_test_secret',
  baseUrl: 'http://127.0.0.1:1',
}
const envNames = ['CHARGEKIT_BASE_URL', 'CHARGEKIT_ACCOUNT_ID', 'CHARGEKIT_PRIVATE_KEY'] as const

function constructionError(options: unknown): ChargekitError {
  try {
    createClient(options as ClientOptions)
  } catch (error) {
    expect(error).toBeInstanceOf(ChargekitError)
    return error as ChargekitError
  }
  throw new Error('createClient accepted the options')
}

/** A loopback server that answers every request 404 and records it. */
function startNotFoundServer() {
  return startRecordingServer(() => ({ status: 404, body: '{"message":"Not found"}' }))
}

afterEach(() => {
  for (const name of envNames) delete process.env[name]
})

describe('createClient options', () => {
  it.each([
    [
      { privateKey: 'sk_x_secret', baseUrl: valid.baseUrl },
      /accountId is missing.*CHARGEKIT_ACCOUNT_ID/,
    ],
    [{ accountId: 'acct', baseUrl: valid.baseUrl }, /privateKey is missing.*CHARGEKIT_PRIVATE_KEY/],
    [{ accountId: 'acct', privateKey: 'sk_x_secret' }, /baseUrl is missing.*CHARGEKIT_BASE_URL/],
    [
      { ...valid, privateKey: 'k' },
      /privateKey is too short: expected at least 8 characters, got 1/,
    ],
    [{ ...valid, accountId: 'acct:1' }, /accountId must be .*":"/],
    [{ ...valid, accountId: '' }, /accountId must be a non-empty string/],
    [{ ...valid, privateKey: 42 }, /privateKey must be a non-empty string/],
    [{ ...valid, baseUrl: 'not a url' }, /baseUrl must be an absolute http\(s\) URL.*"not a url"/],
    [{ ...valid, baseUrl: 'ftp://files.example.com' }, /baseUrl must be .*ftp:/],
    [{ ...valid, baseUrl: 'https://x.example.com/?a=1' }, /baseUrl must not have a query/],
    [{ ...valid, timeoutMs: -5 }, /timeoutMs must be a whole number of milliseconds.*-5/],
    [{ ...valid, deadlineMs: 1.5 }, /deadlineMs must be a whole number/],
    [{ ...valid, maxRetries: 21 }, /maxRetries must be a whole number from 0 to 20 \(got 21\)/],
    [{ ...valid, backoff: { initialDelayMs: 'soon' } }, /backoff.initialDelayMs must be/],
    [
      { ...valid, backoff: 500 },
      /backoff must be an object such as \{ initialDelayMs: 500 \} \(got 500\)/,
    ],
    [
      { ...valid, backoff: { initialDelay: 100 } },
      /unknown backoff option "initialDelay" \(did you mean initialDelayMs\?\); the valid backoff options are initialDelayMs, maxDelayMs, maxRetryAfterMs/,
    ],
    [
      { ...valid, timeout: 5000 },
      /unknown option "timeout" \(did you mean timeoutMs\?\); the valid options are accountId, privateKey, baseUrl, fetch, transport, timeoutMs, deadlineMs, maxRetries, backoff, logger, validate, dangerouslyAllowBrowser\.$/,
    ],
    [
      { ...valid, idempotency_key: 'order-1' },
      /unknown option "idempotency_key"; the valid options/,
    ],
    [{ ...valid, validate: 'yes' }, /validate must be true or false/],
    [{ ...valid, logger: 'console' }, /logger must be a function/],
    [{ ...valid, fetch: {} }, /fetch must be a function .*\(got an object\)/],
    [{ ...valid, transport: 'node' }, /transport must be a transport function.*nodeTransport\(\)/],
    [{ ...valid, fetch, transport: () => undefined }, /pass fetch or transport, not both/],
    [{ ...valid, environment: 'live' }, /environment option is not supported.*baseUrl/],
    [null, /expected an options object/],
  ])('rejects %j with a message that says what to pass', (options, message) => {
    expect(constructionError(options).message).toMatch(message)
  })

  it('reads only the options object own properties, as a spread would', () => {
    const inherited = Object.assign(Object.create({ timeoutMs: 'soon', maxDelay: 1 }), valid)
    expect(() => createClient(inherited)).not.toThrow()
    const backoff = Object.assign(Object.create({ initialDelay: 1 }), { maxDelayMs: 100 })
    expect(() => createClient({ ...valid, backoff })).not.toThrow()
    expect(constructionError({ ...inherited, timeoutMs: 'soon' }).message).toMatch(
      /timeoutMs must be a whole number/,
    )
  })

  it('never repeats a credential in a construction error', () => {
    const badBaseUrl = constructionError({
      ...valid,
      baseUrl: 'https://acct:hunter22@x.example.com',
    })
    expect(badBaseUrl.message).toMatch(/must not contain credentials/)
    expect(badBaseUrl.message).not.toContain('hunter22')

    fc.assert(
      fc.property(fc.string({ minLength: 6 }), (secret) => {
        const error = constructionError({
          ...valid,
          privateKey: ` ${secret}`,
          accountId: `${secret}:`,
        })
        expect(error.message).not.toContain(secret)
      }),
    )
  })

  it('accepts the API root as baseUrl as well as the origin', async () => {
    const server = await startNotFoundServer()
    try {
      for (const baseUrl of [
        server.url,
        `${server.url}/`,
        `${server.url}/v2`,
        `${server.url}/v2/`,
      ]) {
        const client = createClient({ ...valid, baseUrl, maxRetries: 0 })
        await expect(client.charges.retrieve('ch_1')).rejects.toThrow(/404/)
      }
      expect(server.requests.map((request) => request.url)).toEqual(
        Array(4).fill('/v2/charges/ch_1'),
      )
    } finally {
      await server.close()
    }
  })
})

describe('the transport on Node', () => {
  // undici's fetch sends the Fetch standard's `sec-fetch-mode` header; node:http sends none.
  it('is node:http in the Node entry unless fetch is given, and fetch in the web entry', async () => {
    const server = await startNotFoundServer()
    try {
      const options = { ...valid, baseUrl: server.url, maxRetries: 0 }
      for (const client of [
        createClientOnNode(options),
        createClientOnNode({ ...options, fetch }),
        createClient(options),
      ]) {
        await expect(client.charges.retrieve('ch_1')).rejects.toThrow(/404/)
      }
      expect(server.requests.map((request) => request.headers['sec-fetch-mode'])).toEqual([
        undefined,
        'cors',
        'cors',
      ])
      // Whichever the transport, the same call goes out.
      for (const request of server.requests) {
        expect(request.url).toBe('/v2/charges/ch_1')
        expect(request.headers['user-agent']).toBe(`chargekit-client/${VERSION}`)
      }
    } finally {
      await server.close()
    }
  })

  it('shares kept-alive connections between the default clients of the process', async () => {
    const server = await startNotFoundServer()
    try {
      const options = { ...valid, baseUrl: server.url, maxRetries: 0 }
      for (const client of [createClientOnNode(options), createClientOnNode(options)]) {
        await expect(client.refunds.retrieve('re_1')).rejects.toThrow(/404/)
      }
      expect(server.requests).toHaveLength(2)
      expect(server.connections()).toBe(1)
    } finally {
      await server.close()
    }
  })
})

describe('createClient from the environment', () => {
  let server: Awaited<ReturnType<typeof startRecordingServer>>
  beforeAll(async () => {
    server = await startNotFoundServer()
  })
  afterAll(() => server.close())
  // Test files share their worker's process: the variables must not outlive these tests.
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('reads CHARGEKIT_BASE_URL, CHARGEKIT_ACCOUNT_ID and CHARGEKIT_PRIVATE_KEY', async () => {
    vi.stubEnv('CHARGEKIT_BASE_URL', server.url)
    vi.stubEnv('CHARGEKIT_ACCOUNT_ID', 'acct_env')
    vi.stubEnv('CHARGEKIT_PRIVATE_KEY', 'sk_env_ü')
    const client = createClient()
    await expect(client.refunds.retrieve('re_1')).rejects.toThrow(/not found|404/i)
    const request = server.requests.at(-1)
    expect(request?.url).toBe('/v2/refunds/re_1')
    expect(request?.headers.authorization).toBe(authorization('acct_env', 'sk_env_ü'))
    expect(request?.headers['user-agent']).toBe(`chargekit-client/${VERSION}`)
  })

  it('lets options win over the environment', async () => {
    vi.stubEnv('CHARGEKIT_BASE_URL', 'http://127.0.0.1:1')
    const client = createClient({ ...valid, baseUrl: server.url })
    await expect(client.refunds.retrieve('re_2')).rejects.toThrow(/404/)
    expect(server.requests.at(-1)?.url).toBe('/v2/refunds/re_2')
  })

  it('reports the version of package.json', async () => {
    const { version } = await import('../package.json')
    expect(VERSION).toBe(version)
  })

  it('does not expose the credentials on the client object', () => {
    const client = createClient(valid)
    expect(JSON.stringify(client)).not.toContain(valid.privateKey)
    expect(Object.isFrozen(client)).toBe(true)
  })
})
