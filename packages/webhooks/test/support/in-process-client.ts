import { type ChargekitClient, createClient } from '@chargekit/client'
import type { TestSandbox } from '@chargekit/sandbox/testing'

/**
 * A client of the test sandbox's first account whose calls (the receivers' event fetches
 * included) go to the sandbox in-process; deliveries still reach receivers over HTTP.
 */
export function inProcessClient(sandbox: TestSandbox): ChargekitClient {
  const [account] = sandbox.sandbox.accounts
  if (!account) throw new Error('the sandbox has no account')
  return createClient({
    accountId: account.id,
    privateKey: account.key,
    baseUrl: sandbox.sandbox.url,
    fetch: sandbox.fetch,
  })
}
