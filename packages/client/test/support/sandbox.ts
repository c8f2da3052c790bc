import { startSandbox } from '@chargekit/sandbox'
import { clientFromConfig } from '../../src/client'
import { type RetrySleep, resolveConfig } from '../../src/config'
import { type ClientOptions, createClient, type FetchLike } from '../../src/index'
import { nodeTransport } from '../../src/node'
import { startRecordingServer } from './recording-server'

export const account = { id: 'acct_sandbox', key: 'sk_sandbox' }
export const otherAccount = { id: 'acct_other', key: 'sk_other_secret' }

/**
 * The transport every test client uses: `fetch`, or `node:http` when the suite runs as the
 * `client (node transport)` project, so one suite proves both behave alike.
 */
export const testTransport = process.env.CHARGEKIT_TEST_TRANSPORT === 'node' ? 'node' : 'fetch'
const sharedNodeTransport = testTransport === 'node' ? nodeTransport() : undefined

/**
 * A real sandbox on a free loopback port, with two accounts, plus a receiver for its event
 * deliveries (answering 204) so charges have a working `events_url`.
 */
export async function startTestSandbox(options: Parameters<typeof startSandbox>[0] = {}) {
  const receiver = await startRecordingServer(() => ({ status: 204 }))
  const sandbox = await startSandbox({ port: 0, accounts: [account, otherAccount], ...options })
  return {
    sandbox,
    url: sandbox.url,
    eventsUrl: `${receiver.url}/events`,
    /** Calls the sandbox in-process, for tests about answers, where the transport plays no part. */
    inProcessFetch: ((url, init) => sandbox.fetch(new Request(url, init))) satisfies FetchLike,
    async close() {
      await sandbox.close()
      await receiver.close()
    },
  }
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
    ...(sharedNodeTransport === undefined || options.fetch !== undefined
      ? {}
      : { transport: sharedNodeTransport }),
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
