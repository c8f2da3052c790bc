import { SandboxError } from '../errors'
import { type CredentialThrottle, createCredentialThrottle } from '../http/credential-throttle'
import type { ApiFetch } from './api-proxy'

export interface DashboardOptions {
  /**
   * The sandbox API to browse, as a fetch function: normally the sandbox app's own `fetch`, so
   * the dashboard's calls never leave the process. Requests go to `{origin}/v2/…` with the
   * signed-in account's Basic credentials.
   */
  api: ApiFetch
  /** How often the page asks for new events and delivery attempts. Default 3000 ms. */
  pollIntervalMs?: number
  /** A session unused this long must sign in again. Default 8 hours. */
  sessionIdleTimeoutMs?: number
  /** Sessions kept at once; beyond it the least recently used is signed out. Default 1000. */
  maxSessions?: number
  /**
   * Counts refused sign-ins per browser address and account; the sandbox shares its API's, so
   * guesses made on either count toward one limit. Default: a throttle of its own, per address.
   */
  throttle?: CredentialThrottle
}

export type ResolvedDashboardOptions = Required<DashboardOptions>

export function resolveDashboardOptions(options: DashboardOptions): ResolvedDashboardOptions {
  if (typeof options?.api !== 'function') {
    throw new SandboxError(
      'createDashboard needs `api`: a (request: Request) => Promise<Response> function, usually the sandbox app’s fetch',
    )
  }
  return {
    api: options.api,
    pollIntervalMs: wholeNumber('pollIntervalMs', options.pollIntervalMs ?? 3000, 100),
    sessionIdleTimeoutMs: wholeNumber(
      'sessionIdleTimeoutMs',
      options.sessionIdleTimeoutMs ?? 8 * 60 * 60 * 1000,
      1,
    ),
    maxSessions: wholeNumber('maxSessions', options.maxSessions ?? 1000, 1),
    throttle: options.throttle ?? createCredentialThrottle([]),
  }
}

function wholeNumber(name: string, value: unknown, minimum: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new SandboxError(
      `createDashboard option ${name} must be a whole number >= ${minimum}; got ${String(value)}`,
    )
  }
  return value
}
