import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import type { Hono } from 'hono'
import {
  defaultAccount,
  type RateLimitOptions,
  type SandboxAccountOptions,
} from './accounts/account-options'
import { createAccounts, type SandboxAccount } from './accounts/accounts'
import { SandboxError } from './errors'
import { createEventDelivery } from './event-delivery'
import { createSandboxApp } from './http/create-app'
import { checkRateLimit, defaultRateLimit } from './http/rate-limit'
import type { SandboxEnv } from './http/sandbox-env'
import type { LifecycleDeps } from './lifecycle/context'
import { createEventRecorder } from './lifecycle/event-recorder'
import { createKeyedLock } from './lifecycle/keyed-lock'
import { runLaterTask } from './lifecycle/later-work'
import { quietLogger, type SandboxLogger } from './logger'
import type { Processor } from './processors/processor'
import { createProcessorRegistry } from './processors/processor-registry'
import { createMemoryStore } from './storage/memory-store'
import type { SandboxStore } from './storage/sandbox-store'
import { createWorkRunner, workDone } from './work-runner'

export interface StartSandboxOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number
  /** Interface to listen on. Default 127.0.0.1 (loopback only). */
  host?: string
  /** Merchant accounts. Default: one, `acct_sandbox` / `sk_sandbox`. */
  accounts?: readonly SandboxAccountOptions[]
  /** Processor plug-ins added to the built-in `no_processor` and `simulated_acquirer`. */
  processors?: readonly Processor[]
  /**
   * Multiplies every simulated delay: delivery retries, asynchronous processor answers,
   * settlement batches. 1 is real time; 0.001 runs a 5-minute retry in 300 ms.
   */
  timeScale?: number
  /** Signs deliveries with Standard Webhooks headers (`whsec_<base64>` or a raw secret). */
  signingSecret?: string
  /** Where to report requests and problems. Default: warnings and errors to the console. */
  logger?: SandboxLogger
  /** Per-account request rate before 429; `false` disables. Default 10,000/s, burst 20,000. */
  rateLimit?: RateLimitOptions | false
  /** An API answer not ready after this long is 504 04.02.0000. Default 30,000 ms. */
  requestTimeoutMs?: number
  /** Where state lives. Default: a new in-memory store. */
  store?: SandboxStore
  /**
   * Deliver events to each charge's events_url (default true). Off, events are still recorded
   * and searchable (`delivery_status: 'none'`): for load tests, or merchants that only poll.
   */
  deliverEvents?: boolean
}

export interface Sandbox {
  /** Origin the sandbox listens on, e.g. `http://127.0.0.1:4010` (no /v2). */
  readonly url: string
  /** The API base, `url + '/v2'`: what a client's `baseUrl` should be. */
  readonly apiUrl: string
  readonly accounts: readonly SandboxAccount[]
  /** Calls the sandbox in-process, without a socket (same answers as over HTTP). */
  fetch(request: Request): Promise<Response>
  /** Stops the server, the delivery engine and every scheduled task. */
  close(): Promise<void>
}

/** Starts the emulator of the service: `await startSandbox({ port: 0 })`. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const timeScale = options.timeScale ?? 1
  if (!(Number.isFinite(timeScale) && timeScale >= 0)) {
    throw new SandboxError(
      `timeScale must be a number >= 0 (1 = real time, 0.001 = 1000x faster); got ${String(timeScale)}`,
    )
  }
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000
  if (!(Number.isFinite(requestTimeoutMs) && requestTimeoutMs > 0)) {
    throw new SandboxError('requestTimeoutMs must be a number of ms > 0')
  }
  const limit = options.rateLimit ?? defaultRateLimit
  checkRateLimit('rateLimit', limit)
  const processors = createProcessorRegistry(options.processors)
  const accounts = createAccounts(options.accounts ?? [defaultAccount], processors)
  for (const account of accounts)
    checkRateLimit(`accounts[${account.id}].rateLimit`, account.rateLimit)

  const logger = options.logger ?? quietLogger
  const store = options.store ?? createMemoryStore()
  const now = () => new Date()
  // Timed work lives in the store's queue, so it survives a restart: each recorded event is
  // stored with its delivery (sent by the delivery engine, which logs each attempt on the event)
  // and the lifecycle work it starts (a processor's later answer, a settlement batch).
  const delivery = createEventDelivery({
    store,
    timeScale,
    signingSecret: options.signingSecret,
    logger,
  })
  const deps: LifecycleDeps = {
    store,
    processors,
    accounts: new Map(accounts.map((account) => [account.id, account])),
    locks: createKeyedLock(),
    recordEvent: createEventRecorder({
      store,
      now,
      timeScale,
      deliver: options.deliverEvents ?? true,
      delivery: (accountId, event) => delivery.workFor(accountId, event),
      onStored: () => {
        delivery.wake()
        lifecycleWork.wake()
      },
    }),
    logger,
    now,
  }
  const lifecycleWork = createWorkRunner({
    queue: store.work,
    kind: 'lifecycle',
    // Lifecycle tasks are a few store reads and writes: a lease of minutes is ample.
    leaseMs: 5 * 60_000,
    capacity: (running) => lifecycleConcurrency - running,
    run: async (work) => {
      await runLaterTask(deps, work)
      return workDone
    },
    onError: (error) => logger.error('scheduled lifecycle task failed', { error }),
  })
  // Work stored by an earlier sandbox on this store is due now or later.
  delivery.wake()
  lifecycleWork.wake()
  const app = createSandboxApp({ deps, accounts, delivery, rateLimit: limit, requestTimeoutMs })
  const server = await listen(app, options.port ?? 0, options.host ?? '127.0.0.1')
  const url = originOf(server)

  let closing: Promise<void> | undefined
  return {
    url,
    apiUrl: `${url}/v2`,
    accounts: accounts.map(({ id, key, channels }) => ({ id, key, channels })),
    fetch: async (request) => app.fetch(request),
    close() {
      closing ??= (async () => {
        await closeServer(server)
        await lifecycleWork.close()
        await delivery.close()
      })()
      return closing
    },
  }
}

/** Lifecycle tasks run at once at most: each holds its charge's lock while it runs. */
const lifecycleConcurrency = 16

function listen(app: Hono<SandboxEnv>, port: number, host: string): Promise<ServerType> {
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SandboxError(`port must be a whole number from 0 to 65535; got ${String(port)}`)
  }
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(server))
    server.once('error', (error) =>
      reject(
        new SandboxError(`Cannot listen on ${host}:${port}: ${error.message}`, { cause: error }),
      ),
    )
  })
}

function originOf(server: ServerType): string {
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}`
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    // Keep-alive sockets would hold close() open until they time out.
    if ('closeAllConnections' in server) server.closeAllConnections()
    server.close(() => resolve())
  })
}
