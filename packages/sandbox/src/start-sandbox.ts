import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import {
  defaultAccount,
  type RateLimitOptions,
  type SandboxAccountOptions,
} from './accounts/account-options'
import { createAccounts, type SandboxAccount } from './accounts/accounts'
import { type SandboxClock, systemClock } from './clock'
import { createDeliveryAttemptLog, createEventDelivery } from './delivery/index'
import { SandboxError } from './errors'
import { type ConnectionLimits, limitConnections } from './http/connection-limits'
import { createSandboxApp } from './http/create-app'
import {
  type CredentialThrottleOptions,
  createCredentialThrottle,
} from './http/credential-throttle'
import { createStartingApp } from './http/health-routes'
import { defaultRateLimit } from './http/rate-limit'
import type { LifecycleDeps } from './lifecycle/context'
import { createEventRecorder } from './lifecycle/events'
import { runLaterTask } from './lifecycle/run-later-task'
import { quietLogger, type SandboxLogger } from './logger'
import type { Processor } from './processors/processor'
import { builtInProcessors, createProcessorRegistry } from './processors/processor-registry'
import { createReadiness } from './readiness'
import { checkOptions, startSandboxOptionsSchema } from './sandbox-options'
import { checkRetainCharges } from './storage/memory-store'
import type { SandboxStore } from './storage/sandbox-store'
import { waitForStorage } from './wait-for-storage'
import { createWorkRunner, workDone } from './work-runner'

export interface StartSandboxOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number
  /** Interface to listen on. Default 127.0.0.1 (loopback only). */
  host?: string
  /** Merchant accounts. Default: one, `acct_sandbox` / `sk_sandbox` / public key `pk_sandbox`. */
  accounts?: readonly SandboxAccountOptions[]
  /**
   * Processor plug-ins added to the built-in ones (`builtInProcessors`): see
   * [Processors](https://github.com/chargekit/chargekit/blob/main/docs/processors.md).
   */
  processors?: readonly Processor[]
  /**
   * Multiplies every simulated delay: delivery retries, asynchronous processor answers,
   * settlement batches. 1 is real time; 0.001 runs a 5-minute retry in 300 ms.
   */
  timeScale?: number
  /**
   * Where the sandbox reads the time and waits for it: timed work (processors' later answers,
   * customers' deadlines, settlement batches), delivery retries, delivery time-outs and the API's
   * answer time-out (`requestTimeoutMs`). Tests pass a `TestClock` from
   * `@chargekit/sandbox/testing` and advance it instead of waiting.
   * @default the system clock
   */
  clock?: SandboxClock
  /** Signs deliveries with Standard Webhooks headers (`whsec_<base64>` or a raw secret). */
  signingSecret?: string
  /**
   * A delivery attempt the receiver has not answered within this long fails with
   * `result_status` 0, as the service's 10 s limit does. Never scaled by `timeScale`.
   * @default 10_000
   */
  deliveryTimeoutMs?: number
  /** Where to report requests and problems. Default: warnings and errors to the console. */
  logger?: SandboxLogger
  /** Per-account request rate before 429; `false` disables. Default 10,000/s, burst 20,000. */
  rateLimit?: RateLimitOptions | false
  /**
   * An API answer not ready after this long is 504 04.02.0000, measured on `clock`; the work
   * itself still finishes. Default 30,000 ms.
   */
  requestTimeoutMs?: number
  /**
   * The origin customers' browsers reach the sandbox at (`https://sandbox.example.com` behind a
   * proxy): 3-D Secure links start with it, never with the request's Host header, which any
   * client can write. Default: the listening URL.
   */
  publicUrl?: string
  /**
   * Wrong credentials, on the API and the dashboard sign-in, counted per client address with
   * the account it tried and per address; past a limit, that source gets 429 with `Retry-After`
   * until the window ends. Never per account: the owner signing in from elsewhere is not held up.
   * Default: 20 per address and account, 50 per address, a minute.
   */
  credentialThrottle?: CredentialThrottleOptions
  /**
   * Header and request time-outs and the connection caps, overall and per client address.
   * Default 5 s, 30 s, 1,000 connections, 256 from one address.
   */
  connections?: ConnectionLimits
  /**
   * How many charges the in-memory store keeps, across accounts; past it the oldest charge is
   * dropped with its objects and events (later reads answer 404), so memory stays bounded. It
   * also bounds the idempotency keys each account's replays are remembered for.
   * @default 5_000
   */
  retainCharges?: number
  /** Where state lives. Default: a new in-memory store. Excludes `data` and `database`. */
  store?: SandboxStore
  /**
   * Keeps state in an embedded database (PGlite) in this folder, created when missing: it
   * survives restarts, and an answered write is stored. One sandbox process per folder.
   */
  data?: string
  /**
   * Keeps state in this PostgreSQL database (`postgres://user:password@host:5432/name`).
   * Several sandbox processes may share it: each sees what the others wrote.
   */
  database?: string
  /**
   * How long start-up keeps trying to open a data folder or a database that fails to open: a
   * PostgreSQL container still starting beside the sandbox, a folder a stopping sandbox still
   * holds. Meanwhile the server already listens: `/healthz` answers 200, `/readyz` and the API
   * 503. Each failed try is logged as a warning.
   * @default 0 (the first failure is thrown)
   */
  startupTimeoutMs?: number
  /** Aborts start-up, the wait for the store included: `startSandbox` rejects, nothing runs. */
  signal?: AbortSignal
  /**
   * Deliver events to each charge's events_url (default true). Off, events are still recorded
   * and searchable (`delivery_status: 'none'`): for load tests, or merchants that only poll.
   */
  deliverEvents?: boolean
  /**
   * Lets a charge's `events_url` be plain http to any host: a receiver on a docker-compose
   * network (`http://shop:3000/webhooks`) or on the LAN, with no certificate. Off, plain http
   * is accepted to 127.0.0.1, localhost and [::1] only, and everything else must be https, as
   * the service requires.
   * @default false
   */
  allowHttpEventsUrl?: boolean
  /**
   * Origins whose pages may call `/v2` from a browser (CORS), such as `https://shop.example`.
   * Default: any origin, echoed in `Access-Control-Allow-Origin`.
   */
  corsOrigins?: readonly string[]
  /**
   * Declined cards one charge takes; the next attempt fails the charge with 02.01.0000 Too Many
   * Tries, a defence against card testing through the public key. Default 5.
   */
  maxDeclinedInstruments?: number
}

export interface Sandbox {
  /** Origin the sandbox listens on, e.g. `http://127.0.0.1:4010` (no /v2). */
  readonly url: string
  /** The API base, `url + '/v2'`: what a client's `baseUrl` should be. */
  readonly apiUrl: string
  readonly accounts: readonly SandboxAccount[]
  /** Calls the sandbox in-process, without a socket (same answers as over HTTP). */
  fetch(request: Request): Promise<Response>
  /** Where state lives, for people (a database URL without its password). */
  readonly storage: string
  /**
   * Stops the sandbox: `/readyz` answers 503, the server accepts no more connections, requests
   * and delivery attempts under way may finish for up to `timeoutMs` (default 0: they are cut
   * short at once), then timed work still pending stays in the store for the next sandbox on
   * it, and the database is closed.
   */
  close(options?: { timeoutMs?: number }): Promise<void>
}

/** Starts the emulator of the service: `await startSandbox({ port: 0 })`. */
export function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  return launchSandbox(options, builtInProcessors)
}

/**
 * {@link startSandbox} with another set of built-in processors: the conformance kit checks a
 * built-in processor by registering its recording copy in the original's place.
 */
export async function launchSandbox(
  options: StartSandboxOptions,
  builtIns: readonly Processor[],
): Promise<Sandbox> {
  checkOptions('startSandbox', startSandboxOptionsSchema, options)
  const timeScale = options.timeScale ?? 1
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000
  const maxDeclinedInstruments = options.maxDeclinedInstruments ?? 5
  const corsOrigins = options.corsOrigins && Object.freeze([...options.corsOrigins])
  const limit = options.rateLimit ?? defaultRateLimit
  const connections = limitConnections(options.connections)
  const configuredPublicUrl =
    options.publicUrl === undefined ? undefined : new URL(options.publicUrl).origin
  const processors = createProcessorRegistry(options.processors, builtIns)
  const accounts = createAccounts(options.accounts ?? [defaultAccount], processors)

  const logger = options.logger ?? quietLogger
  const retainCharges = checkRetainCharges(options.retainCharges)
  const readiness = createReadiness(logger)
  // The server listens before the store opens, so that a healthcheck sees the process up and
  // not yet ready while a database container is still starting; the app needs the listening
  // URL (the default public URL) and the store, so it takes over once both exist.
  let handle: Handler = createStartingApp(readiness).fetch
  const server = await listen(
    (request, env) => handle(request, env),
    options.port ?? 0,
    options.host ?? '127.0.0.1',
    connections,
  )
  const url = originOf(server.http)
  readiness.starting('opening the store')
  logger.info(`starting on ${url}: opening the store; /readyz answers 503 until it is open`, {
    url,
  })
  const storage = await waitForStorage(
    { ...options, retainCharges },
    {
      timeoutMs: options.startupTimeoutMs ?? 0,
      signal: options.signal,
      onRetry: (error, pauseMs) => {
        readiness.starting('waiting for the store to open')
        // The message alone: the stack of a database that is not up yet says nothing more.
        logger.warn(`cannot open the store yet; trying again in ${pauseMs} ms`, {
          reason: error instanceof Error ? error.message : String(error),
        })
      },
    },
  ).catch(async (error: unknown) => {
    await server.stop(0)
    throw error
  })
  if (options.signal?.aborted) {
    await Promise.all([server.stop(0), storage.close()])
    options.signal.throwIfAborted()
  }
  const { store } = storage
  const clock = options.clock ?? systemClock
  const now = () => new Date(clock.now())
  // Timed work lives in the store's queue, so it survives a restart: each recorded event is
  // stored with its delivery (sent by the delivery engine, which logs each attempt on the event)
  // and the lifecycle work it starts (a processor's later answer, a settlement batch). Both
  // runners start work the moment the queue says it is committed, and at once what an earlier
  // sandbox left in the store.
  const deliveryAttempts = createDeliveryAttemptLog()
  const delivery = createEventDelivery({
    store,
    attempts: deliveryAttempts,
    timeScale,
    signingSecret: options.signingSecret,
    timeoutMs: options.deliveryTimeoutMs,
    logger,
    clock,
  })
  const deps: LifecycleDeps = {
    store,
    processors,
    accounts: new Map(accounts.map((account) => [account.id, account])),
    locks: storage.locks,
    recordEvent: createEventRecorder({
      store,
      now,
      timeScale,
      deliver: options.deliverEvents ?? true,
      delivery: (accountId, event) => delivery.workFor(accountId, event),
    }),
    logger,
    now,
    timeScale,
    maxDeclinedInstruments,
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
    clock,
  })
  const app = createSandboxApp({
    deps,
    accounts,
    delivery,
    deliveryAttempts,
    rateLimit: limit,
    requestTimeoutMs,
    clock,
    throttle: createCredentialThrottle(
      accounts.map((account) => account.id),
      options.credentialThrottle,
    ),
    publicUrl: configuredPublicUrl ?? url,
    corsOrigins,
    allowHttpEventsUrl: options.allowHttpEventsUrl === true,
    readiness,
  })
  handle = app.fetch
  // The lightest read every store answers: one indexed row, or none, from the work queue.
  readiness.ready(() => store.work.nextDueAt('lifecycle'))

  let closing: Promise<void> | undefined
  return {
    url,
    apiUrl: `${url}/v2`,
    accounts: accounts.map(({ id, privateKey, key, publicKey, channels }) => ({
      id,
      privateKey,
      key,
      publicKey,
      channels,
    })),
    storage: storage.description,
    fetch: async (request) => app.fetch(request),
    close({ timeoutMs = 0 } = {}) {
      closing ??= (async () => {
        readiness.stopping()
        // Requests, timed work and delivery attempts under way finish side by side, each
        // within the bound; what they leave queued stays in the store.
        await Promise.all([
          server.stop(timeoutMs),
          lifecycleWork.close(),
          delivery.close({ timeoutMs }),
        ])
        await storage.close()
      })()
      return closing
    },
  }
}

/** Lifecycle tasks run at once at most: each holds its charge's lock while it runs. */
const lifecycleConcurrency = 16

type Handler = Parameters<typeof serve>[0]['fetch']

interface ListeningServer {
  readonly http: ServerType
  /**
   * Accepts no more connections, lets the requests under way finish for up to `timeoutMs`, then
   * closes every connection.
   */
  stop(timeoutMs: number): Promise<void>
}

function listen(
  fetch: Handler,
  port: number,
  host: string,
  connections: ReturnType<typeof limitConnections>,
): Promise<ListeningServer> {
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch, port, hostname: host, serverOptions: connections.serverOptions },
      () => resolve({ http: server, stop: (timeoutMs) => stopServer(server, requests, timeoutMs) }),
    )
    connections.guard(server as Server)
    const requests = countRequests(server)
    server.once('error', (error) =>
      reject(
        new SandboxError(`Cannot listen on ${host}:${port}: ${error.message}`, { cause: error }),
      ),
    )
  })
}

/** The requests a server is answering, and a way to wait until there are none. */
function countRequests(server: ServerType) {
  let active = 0
  const waiting = new Set<() => void>()
  server.on('request', (_request, response) => {
    active++
    response.once('close', () => {
      active--
      if (active > 0) return
      for (const wake of waiting) wake()
      waiting.clear()
    })
  })
  return {
    none(): Promise<void> {
      return active === 0 ? Promise.resolve() : new Promise((resolve) => waiting.add(resolve))
    },
  }
}

async function stopServer(
  server: ServerType,
  requests: ReturnType<typeof countRequests>,
  timeoutMs: number,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  if (!('closeAllConnections' in server)) return closed
  // Keep-alive sockets with no request would hold close() open until they time out.
  server.closeIdleConnections()
  let deadline: NodeJS.Timeout | undefined
  await Promise.race([
    requests.none(),
    new Promise((resolve) => {
      deadline = setTimeout(resolve, timeoutMs)
    }),
  ])
  clearTimeout(deadline)
  server.closeAllConnections()
  await closed
}

function originOf(server: ServerType): string {
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}`
}
