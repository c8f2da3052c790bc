import {
  startTestSandbox,
  type TestSandbox,
  type TestSandboxOptions,
} from '@chargekit/sandbox/testing'
import { describe } from 'vitest'
import { clientFromConfig } from '../../src/client'
import { type RetrySleep, resolveConfig } from '../../src/config'
import { fetchTransport } from '../../src/fetch-transport'
import type { HttpTransport } from '../../src/http-transport'
import { type ChargekitClient, type ClientOptions, createClient } from '../../src/index'
import { nodeTransport } from '../../src/node'

export const account = { id: 'acct_sandbox', key: 'sk_sandbox' }
export const otherAccount = { id: 'acct_other', key: 'sk_other_secret' }

/** The transports the client's tests run over: retries, timeouts and errors must not differ. */
type TransportName = 'fetch' | 'node:http'

// One node:http transport, with its kept-alive agents, for every test client of the worker, as
// an application shares one.
let sharedNodeTransport: HttpTransport | undefined

function transportOf(name: TransportName): HttpTransport {
  if (name === 'fetch') return fetchTransport(fetch)
  sharedNodeTransport ??= nodeTransport()
  return sharedNodeTransport
}

/** Test clients, and counting transports, over one transport. */
export interface TestClients {
  /**
   * A client for the default test account, with short retry waits so fault tests stay fast, on
   * this transport (unless the test brings its own `fetch`). `sleep` replaces the real wait
   * between attempts, for tests about how long the client decides to wait, not about waiting.
   */
  testClient(
    baseUrl: string,
    options?: ClientOptions,
    overrides?: { sleep?: RetrySleep },
  ): ChargekitClient
  /** This transport, counting the calls a client makes to it: one per attempt it starts. */
  countingTransport(): { transport: HttpTransport; calls: () => number }
}

function clientsOver(name: TransportName): TestClients {
  return {
    testClient(baseUrl, options = {}, { sleep } = {}) {
      const merged: ClientOptions = {
        accountId: account.id,
        privateKey: account.key,
        baseUrl,
        backoff: { initialDelayMs: 20, maxDelayMs: 100, maxRetryAfterMs: 2_000 },
        ...(options.fetch === undefined ? { transport: transportOf(name) } : {}),
        ...options,
      }
      if (sleep === undefined) return createClient(merged)
      return clientFromConfig({ ...resolveConfig(merged), sleep })
    },
    countingTransport() {
      const inner = transportOf(name)
      let calls = 0
      const transport: HttpTransport = (request) => {
        calls += 1
        return inner(request)
      }
      return { transport, calls: () => calls }
    },
  }
}

/** Test clients over `fetch`, for tests where the transport plays no part. */
export const { testClient } = clientsOver('fetch')

/**
 * Runs a file's tests once per transport, each time in a describe block of its own: over
 * `fetch`, then over `node:http`. `body` gets the block's test clients, so calls, retries,
 * timeouts, aborts, errors and answers are proven not to depend on the transport.
 *
 * One file for both, rather than a Vitest project that runs the files again: a project starts
 * workers of its own, which import the client and the sandbox again.
 */
export function onEachTransport(body: (clients: TestClients) => void): void {
  describe.each<TransportName>(['fetch', 'node:http'])('over %s', (name) => body(clientsOver(name)))
}

/**
 * The test kit's sandbox with the two accounts these tests sign in as: on a free loopback port,
 * with a receiver answering 204 for `eventsUrl`, and an in-process `fetch` for tests about
 * answers, where the transport plays no part.
 */
export function startClientSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  return startTestSandbox({ accounts: [account, otherAccount], ...options })
}

/**
 * A retry wait that takes no time but records what the client asked for; an already fired
 * signal still rejects, as the real wait does.
 */
export function recordingSleep() {
  const waits: number[] = []
  const sleep: RetrySleep = async (ms, signal, onAbort) => {
    waits.push(ms)
    if (signal?.aborted) throw onAbort()
  }
  return { waits, sleep }
}
