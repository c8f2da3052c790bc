import { type Sandbox, type StartSandboxOptions, startSandbox } from '../start-sandbox'
import { authorization } from './authorization'
import { type Receiver, startReceiver } from './receiver'

/** An answer of the sandbox API, its body parsed (JSON, else the text). */
export interface ApiAnswer {
  status: number
  headers: Headers
  body: AnswerBody
}

// biome-ignore lint/suspicious/noExplicitAny: tests read many shapes; their assertions check them
type AnswerBody = any

/** Calls `/v2{path}` with a JSON body (a string is sent as it is) and extra headers. */
export type ApiCaller = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<ApiAnswer>

/** Fresh state for one sandbox: the options that put it there, and how to delete it after. */
export interface TestState {
  options: Pick<StartSandboxOptions, 'store' | 'data' | 'database'>
  remove(): Promise<void>
}

export interface TestSandboxOptions extends StartSandboxOptions {
  /**
   * Where this sandbox keeps its state: called once, its `remove()` runs after `close()`. How a
   * test suite runs the same tests on an embedded or a PostgreSQL database as well as in memory.
   * Ignored when `store`, `data` or `database` is given. Default: a new in-memory store.
   */
  state?: () => Promise<TestState>
  /**
   * How `api` reaches the sandbox: `'in-process'` (the default) hands each request to
   * `sandbox.fetch`, with no socket, for tests about what the API answers; `'http'` goes over
   * loopback HTTP, for tests about the transport itself.
   */
  transport?: 'in-process' | 'http'
}

/** A charge's flow as far as `seed` took it, each object as the API answered. */
export interface SeededFlow {
  charge: AnswerBody
  instrument?: AnswerBody
  payment?: AnswerBody
  refund?: AnswerBody
}

export interface SeedOptions {
  /** The last step: `'charge'`, `'instrument'`, `'payment'` (default) or `'refund'`. */
  until?: 'charge' | 'instrument' | 'payment' | 'refund'
  /** Fields of `charges.create` over the default (10 EUR `card_onetime` to `eventsUrl`). */
  charge?: Record<string, unknown>
  /** Fields of `instruments.create` over {@link testCard}'s. */
  instrument?: Record<string, unknown>
  /** Fields of the refund over the default (the whole payment). */
  refund?: Record<string, unknown>
}

export interface TestSandbox {
  sandbox: Sandbox
  /** A receiver answering 204 to every delivery, for the charges' `events_url`. */
  receiver: Receiver
  /** `receiver.url + '/events'`. */
  eventsUrl: string
  /** Calls `/v2` as the first account. */
  api: ApiCaller
  /**
   * A `fetch` for clients under test (`createClient({ fetch })`): requests go to the sandbox as
   * `api`'s do, in-process unless the transport is `'http'`.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>
  /** Calls `/v2` as `account` (its id and private or public key). */
  as(account: { id: string; key: string }): ApiCaller
  /** `charges.create` as the first account: 10 EUR `card_onetime` to `eventsUrl`, over which `body` goes. */
  createCharge(body?: Record<string, unknown>): Promise<ApiAnswer>
  /**
   * Walks a charge through its steps as the first account (charge, card instrument, payment,
   * refund) and returns each object; a step answered with anything but success throws,
   * naming it and the answer.
   */
  seed(options?: SeedOptions): Promise<SeededFlow>
  /** Closes the sandbox and the receiver and deletes the sandbox's state. */
  close(): Promise<void>
}

/**
 * Starts a sandbox on 127.0.0.1 for a test (port 0, its own state) with a receiver for its
 * deliveries, and callers for its API. Pass `clock: new TestClock()` to move its time yourself.
 */
export async function startTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const { state: makeState, transport = 'in-process', ...sandboxOptions } = options
  const namesStore =
    options.store !== undefined || options.data !== undefined || options.database !== undefined
  const state = namesStore || makeState === undefined ? undefined : await makeState()
  const receiver = await startReceiver(() => 204)
  const sandbox = await startSandbox({ port: 0, ...sandboxOptions, ...state?.options }).catch(
    async (error: unknown) => {
      await Promise.all([receiver.stop(), state?.remove()])
      throw error
    },
  )
  const [first] = sandbox.accounts
  if (first === undefined) throw new Error('startTestSandbox: the sandbox has no account')
  const send =
    transport === 'http'
      ? (request: Request) => fetch(request)
      : (request: Request) => sandbox.fetch(request)
  const fetchFor = (input: string | URL | Request, init?: RequestInit) =>
    send(new Request(input, init))
  const as =
    ({ id, key }: { id: string; key: string }): ApiCaller =>
    async (method, path, body, headers = {}) => {
      const response = await send(
        new Request(`${sandbox.apiUrl}${path}`, {
          method,
          headers: {
            authorization: authorization(id, key),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          ...(body === undefined
            ? {}
            : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        }),
      )
      return answerOf(response)
    }
  const api = as(first)
  const eventsUrl = `${receiver.url}/events`
  const createCharge = (body: Record<string, unknown> = {}) =>
    api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'EUR',
      events_url: eventsUrl,
      ...body,
    })

  async function seed(seedOptions: SeedOptions = {}): Promise<SeededFlow> {
    const until = seedOptions.until ?? 'payment'
    const step = async (what: string, expected: number, answer: Promise<ApiAnswer>) => {
      const { status, body } = await answer
      if (status !== expected) {
        throw new Error(
          `seed: ${what} answered ${status} ${JSON.stringify(body)}, expected ${expected}`,
        )
      }
      return body
    }
    const charge = await step('POST /v2/charges', 201, createCharge(seedOptions.charge))
    if (until === 'charge') return { charge }
    const instrument = await step(
      'POST /v2/instruments',
      201,
      api('POST', '/instruments', testCard(charge.id, seedOptions.instrument)),
    )
    if (until === 'instrument') return { charge, instrument }
    // A charge captured on creation already has its payment; others are captured here, whole.
    const [captured] = (
      await step('GET /v2/payments', 200, api('GET', `/payments?charge=${charge.id}`))
    ).collection
    const payment =
      captured ??
      (await step(
        'POST /v2/payments',
        201,
        api('POST', '/payments', {
          instrument: instrument.id,
          amount: instrument.amount,
          currency: instrument.currency,
        }),
      ))
    if (until === 'payment') return { charge, instrument, payment }
    const refund = await step(
      `POST /v2/payments/${payment.id}/refund`,
      201,
      api('POST', `/payments/${payment.id}/refund`, {
        amount: payment.amount,
        ...seedOptions.refund,
      }),
    )
    return { charge, instrument, payment, refund }
  }

  let closing: Promise<void> | undefined
  return {
    sandbox,
    receiver,
    eventsUrl,
    api,
    fetch: fetchFor,
    as,
    createCharge,
    seed,
    close() {
      closing ??= (async () => {
        await Promise.all([sandbox.close(), receiver.stop()])
        await state?.remove()
      })()
      return closing
    },
  }
}

/** `instruments.create` for a card every processor authorizes, over which `overrides` go. */
export function testCard(chargeId: string, overrides: Record<string, unknown> = {}) {
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

async function answerOf(response: Response): Promise<ApiAnswer> {
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON (a page, an empty answer): tests read the text.
  }
  return { status: response.status, headers: response.headers, body }
}
