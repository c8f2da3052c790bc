import {
  startTestSandbox,
  type TestSandbox,
  type TestSandboxOptions,
} from '@chargekit/sandbox/testing'
import { clientFromConfig } from '../../src/client'
import { type RetrySleep, resolveConfig } from '../../src/config'
import { fetchTransport } from '../../src/fetch-transport'
import type { HttpTransport } from '../../src/http-transport'
import { type ClientOptions, createClient } from '../../src/index'
import { nodeTransport } from '../../src/node'

export const account = { id: 'acct_sandbox', key: 'sk_sandbox' }
export const otherAccount = { id: 'acct_other', key: 'sk_other_secret' }

/**
 * The transport every test client uses: `fetch`, or `node:http` when the suite runs as the
 * `client (node transport)` project, so one suite proves both behave alike.
 */
export const testTransport = process.env.CHARGEKIT_TEST_TRANSPORT === 'node' ? 'node' : 'fetch'
const sharedNodeTransport = testTransport === 'node' ? nodeTransport() : undefined

/** The suite's transport: `node:http` in the `client (node transport)` project, else `fetch`. */
const suiteTransport = (): HttpTransport => sharedNodeTransport ?? fetchTransport(fetch)

/** The suite's transport, counting the calls a client makes to it: one per attempt it starts. */
export function countingTransport() {
  const inner = suiteTransport()
  let calls = 0
  const transport: HttpTransport = (request) => {
    calls += 1
    return inner(request)
  }
  return { transport, calls: () => calls }
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
 * A client for the default test account, with short retry waits so fault tests stay fast, on the
 * suite's transport (unless the test brings its own `fetch`). `sleep` replaces the real wait
 * between attempts, for tests about how long the client decides to wait, not about waiting.
 */
export function testClient(
  baseUrl: string,
  options: ClientOptions = {},
  { sleep }: { sleep?: RetrySleep } = {},
) {
  const merged: ClientOptions = {
    accountId: account.id,
    privateKey: account.key,
    baseUrl,
    backoff: { initialDelayMs: 20, maxDelayMs: 100, maxRetryAfterMs: 2_000 },
    ...(options.fetch === undefined ? { transport: suiteTransport() } : {}),
    ...options,
  }
  if (sleep === undefined) return createClient(merged)
  return clientFromConfig({ ...resolveConfig(merged), sleep })
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
