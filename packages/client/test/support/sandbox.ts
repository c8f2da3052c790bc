import { startSandbox } from '@chargekit/sandbox'
import { type ClientOptions, createClient } from '../../src/index'
import { startRecordingServer } from './recording-server'

export const account = { id: 'acct_sandbox', key: 'sk_sandbox' }
export const otherAccount = { id: 'acct_other', key: 'sk_other_secret' }

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
    async close() {
      await sandbox.close()
      await receiver.close()
    },
  }
}

/** A client for the default test account, with short retry waits so fault tests stay fast. */
export function testClient(baseUrl: string, options: ClientOptions = {}) {
  return createClient({
    accountId: account.id,
    privateKey: account.key,
    baseUrl,
    backoff: { initialDelayMs: 20, maxDelayMs: 100, maxRetryAfterMs: 2_000 },
    ...options,
  })
}
