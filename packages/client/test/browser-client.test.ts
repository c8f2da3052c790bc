import { encodeTestAmount } from '@chargekit/errors'
import { authorization, type TestSandbox } from '@chargekit/sandbox/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AuthenticationError,
  type BrowserClient,
  type BrowserClientOptions,
  ChargekitError,
  createBrowserClient,
  PaymentError,
} from '../src/browser'
import { createClient } from '../src/index'
import { card, chargeParams } from './support/flows'
import { startRecordingServer } from './support/recording-server'
import { startClientSandbox, testClient } from './support/sandbox'

let env: TestSandbox
let browser: BrowserClient

beforeAll(async () => {
  env = await startClientSandbox()
  const publicKey = env.sandbox.accounts[0]?.publicKey ?? ''
  browser = createBrowserClient({ publicKey, baseUrl: env.sandbox.url })
})
afterAll(() => env.close())

describe('createBrowserClient', () => {
  it('offers only what the public key may do', () => {
    expect(Object.keys(browser)).toEqual(['charges', 'instruments'])
    expect(Object.keys(browser.charges)).toEqual(['types', 'create', 'retrieve'])
    expect(Object.keys(browser.instruments)).toEqual(['create', 'retrieve'])
  })

  it('runs a checkout with the server confirming the charge', async () => {
    const types = await browser.charges.types()
    expect(types.map((type) => type.id)).toContain('card_onetime')
    const started = await browser.charges.create(chargeParams(env.eventsUrl))
    expect(started.confirmed).toBe(false)
    await testClient(env.sandbox.url).charges.confirm(started.id)
    const instrument = await browser.instruments.create({ charge: started.id, ...card })
    expect(instrument).toMatchObject({ status: 'authorized', charge: { id: started.id } })
    await expect(browser.instruments.retrieve(instrument.id)).resolves.toMatchObject({
      id: instrument.id,
      status: 'authorized',
    })
    await expect(browser.charges.retrieve(started.id)).resolves.toMatchObject({ confirmed: true })
    const answer = await browser.instruments.retrieve(instrument.id).withResponse()
    expect(answer).toMatchObject({ status: 200, data: { id: instrument.id } })
    expect(answer.requestId).toMatch(/^req_/)
    const typesAnswer = await browser.charges.types().withResponse()
    expect(typesAnswer.data.map((type) => type.id)).toContain('mbway')
  })

  it('throws a PaymentError that says what was declined and what to do next', async () => {
    const charge = await testClient(env.sandbox.url).charges.create(
      chargeParams(env.eventsUrl, { amount: encodeTestAmount('02.03.0000', 'instrument') }),
    )
    const error = await browser.instruments.create({ charge: charge.id, ...card }).catch((e) => e)
    expect(error).toBeInstanceOf(PaymentError)
    expect(error).toMatchObject({
      status: 402,
      code: '02.03.0000',
      category: 'soft_decline',
      // From the answer's body: the browser client carries no catalogue.
      designation: 'Insufficient Funds',
      element: 'instrument',
      retryable: true,
    })
    expect(error.message).toMatch(
      /^Instrument in_\w+ was declined: 02\.03\.0000 Insufficient Funds \(soft decline\)\. A later attempt may succeed\./,
    )
    expect(error.requestId).toMatch(/^req_/)
  })

  it('names the public key when it is refused', async () => {
    const wrong = createBrowserClient({ publicKey: 'pk_unknown', baseUrl: env.sandbox.url })
    const error = await wrong.charges.types().catch((e) => e)
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.message).toContain('Check the publicKey passed to createBrowserClient')
  })

  it('sends neither a password nor a User-Agent', async () => {
    const server = await startRecordingServer(() => ({ status: 200, body: '{"collection":[]}' }))
    try {
      await createBrowserClient({ publicKey: 'pk_shop', baseUrl: server.url }).charges.types()
      const [request] = server.requests
      expect(request?.headers.authorization).toBe(authorization('pk_shop', ''))
      expect(request?.headers['user-agent']).not.toMatch(/chargekit/)
    } finally {
      await server.close()
    }
  })

  it.each([
    [{ baseUrl: 'http://127.0.0.1:1' }, /publicKey must be the account's public key/],
    [{ publicKey: 'sk_sandbox', baseUrl: 'http://127.0.0.1:1' }, /looks like a private key/],
    [{ publicKey: 'pk_sandbox' }, /baseUrl is missing/],
    [
      { publicKey: 'pk_sandbox', baseUrl: 'http://127.0.0.1:1', privateKey: 'sk_sandbox' },
      /privateKey/,
    ],
  ])('refuses bad options: %j', (options, message) => {
    expect(() => createBrowserClient(options as BrowserClientOptions)).toThrow(ChargekitError)
    expect(() => createBrowserClient(options as BrowserClientOptions)).toThrow(message)
  })
})

describe('createClient in a browser', () => {
  it('refuses to start unless dangerouslyAllowBrowser is set, and says to use the public key', () => {
    const page = globalThis as { window?: unknown; document?: unknown }
    page.window = globalThis
    page.document = {}
    try {
      const options = { accountId: 'acct_x', privateKey: 'sk_x_secret', baseUrl: env.sandbox.url }
      expect(() => createClient(options)).toThrow(
        /refusing to run in a browser.*createBrowserClient\(\{ publicKey, baseUrl \}\) from @chargekit\/client\/browser/,
      )
      expect(() => createClient({ ...options, dangerouslyAllowBrowser: true })).not.toThrow()
    } finally {
      delete page.window
      delete page.document
    }
    expect(() =>
      createClient({ accountId: 'acct_x', privateKey: 'sk_x_secret', baseUrl: env.sandbox.url }),
    ).not.toThrow()
  })
})
