// @chargekit/client as Node loads it (the package's `node` export condition): the same entry,
// except that a client given neither `fetch` nor `transport` sends its calls over `node:http`,
// which costs less per call than `fetch` does on Node. Other runtimes load ./index.ts, which
// stays web-standard.
import { type ChargekitClient, clientFromConfig } from './client'
import type { ClientOptions } from './client-options'
import { resolveConfig } from './config'
import type { HttpTransport } from './http-transport'
import { nodeTransport } from './node-transport'

export * from './index'

// One transport for every default client of the process, so that they share kept-alive
// connections instead of each opening its own.
let sharedTransport: HttpTransport | undefined
const processTransport = () => {
  sharedTransport ??= nodeTransport()
  return sharedTransport
}

/**
 * Creates a client. Options fall back to `CHARGEKIT_BASE_URL`, `CHARGEKIT_ACCOUNT_ID` and
 * `CHARGEKIT_PRIVATE_KEY` where the runtime has an environment; anything missing or malformed
 * throws a `ChargekitError` now that says what to pass. The credentials stay in a closure: they
 * are not properties of the client, so logging the client cannot print them.
 *
 * On Node, calls go over `node:http` with kept-alive connections unless `fetch` or `transport`
 * says otherwise; retries, timeouts, aborts, errors and answers are the same over either.
 */
export function createClient(options?: ClientOptions): ChargekitClient {
  return clientFromConfig(resolveConfig(options, processTransport))
}
