import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Sandbox, StartSandboxOptions } from '../src/index'
import { startSandboxUnderTest } from './store-under-test'

/** An answer of the sandbox API, body parsed (JSON or text). */
export interface ApiAnswer {
  status: number
  headers: Headers
  // Tests read many shapes; the assertions are what check them.
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by assertions
  body: any
}

export type ApiCaller = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<ApiAnswer>

export interface Credentials {
  id: string
  key: string
}

export interface Harness {
  sandbox: Sandbox
  /** A loopback receiver that accepts every delivery (204), for charges' events_url. */
  eventsUrl: string
  /** Calls /v2 as an account (default: the first). */
  api: ApiCaller
  as(account: Credentials): ApiCaller
  /** POST /v2/charges as the first account: 10 EUR `card_onetime` to `eventsUrl`, unless `body` says otherwise. */
  createCharge(body?: Record<string, unknown>): ReturnType<ApiCaller>
  close(): Promise<void>
}

export function basicAuth({ id, key }: Credentials): string {
  return `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`
}

/**
 * A real sandbox on 127.0.0.1 port 0 on the store under test (see store-under-test.ts), plus a
 * receiver for its deliveries.
 */
export async function startHarness(options: StartSandboxOptions = {}): Promise<Harness> {
  const receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(204)
      response.end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const receiverPort = (receiver.address() as AddressInfo).port
  const sandbox = await startSandboxUnderTest({ port: 0, ...options })
  const first = sandbox.accounts[0]
  if (first === undefined) throw new Error('the sandbox has no account')
  const as =
    (account: Credentials): ApiCaller =>
    async (method, path, body, headers = {}) => {
      const response = await fetch(`${sandbox.apiUrl}${path}`, {
        method,
        headers: {
          authorization: basicAuth(account),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined
          ? {}
          : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      })
      const text = await response.text()
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {
        // Not JSON: tests look at the text.
      }
      return { status: response.status, headers: response.headers, body: parsed }
    }
  const eventsUrl = `http://127.0.0.1:${receiverPort}/events`
  const api = as(first)
  return {
    sandbox,
    eventsUrl,
    api,
    as,
    createCharge: (body = {}) =>
      api('POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 10,
        currency: 'EUR',
        events_url: eventsUrl,
        ...body,
      }),
    async close() {
      await sandbox.close()
      receiver.closeAllConnections()
      await new Promise<void>((resolve) => receiver.close(() => resolve()))
    },
  }
}

/** A card that authorizes on every processor. */
export function cardFor(chargeId: string, overrides: Record<string, unknown> = {}) {
  return {
    charge: chargeId,
    name: 'Ada Lovelace',
    number: '4242424242424242',
    expiration_month: 12,
    expiration_year: new Date().getUTCFullYear() + 3,
    cvc: '123',
    ...overrides,
  }
}

/** Event types of a charge, oldest first. */
export async function eventTypesOf(api: ApiCaller, chargeId: string): Promise<string[]> {
  const answer = await api('GET', `/events?charge=${chargeId}&per_page=100`)
  return (answer.body.collection as { type: string }[]).map((event) => event.type).reverse()
}

/** Polls until `check` passes (for the simulated acquirer's later answers); fails after 10 s. */
export async function eventually<T>(check: () => Promise<T>, limitMs = 10_000): Promise<T> {
  const deadline = Date.now() + limitMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}

/**
 * Opens the 3-D Secure page at an instrument's `redirect.url`, as the customer's browser does,
 * and reads its form: where it posts (absolute) and the challenge's token.
 */
export async function challengeForm(
  redirectUrl: string,
): Promise<{ action: string; token: string }> {
  const page = await fetch(redirectUrl, { redirect: 'manual' })
  const html = await page.text()
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1]
  if (action === undefined || token === undefined) {
    throw new Error(`No challenge form at ${redirectUrl} (status ${page.status})`)
  }
  return { action: new URL(action, redirectUrl).href, token }
}
