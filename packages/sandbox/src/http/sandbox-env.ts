import type { HttpBindings } from '@hono/node-server'
import type { Account } from '../accounts/accounts'
import type { IntegrationWarnings } from './integration-warnings'

/**
 * Hono's environment for the sandbox app: node bindings and per-request values. The bindings
 * are Partial (and `c.env` itself is undefined at run time) when the app is called in-process
 * through `sandbox.fetch`, so read them with optional chaining.
 */
export interface SandboxEnv {
  Bindings: Partial<HttpBindings> & {
    /** Set on the dashboard's own calls to the API, which stay out of the account's request log. */
    fromDashboard?: boolean
  }
  Variables: {
    requestId: string
    /** Set by the auth middleware on every /v2 route except the customer's 3DS page. */
    account: Account
    /** Which key authenticated the request: the private key (server) or the public key (browser). */
    credential: 'private' | 'public'
    /** What the request relied on that the client would have sent otherwise; see requestWarnings. */
    integrationWarnings: IntegrationWarnings
  }
}
