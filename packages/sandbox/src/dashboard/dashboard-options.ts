import type { DeliveryAttemptLog } from '../delivery/attempt-log'
import { type CredentialThrottle, createCredentialThrottle } from '../http/credential-throttle'
import type { SandboxStore } from '../storage/sandbox-store'
import type { ApiFetch } from './api-proxy'

/** The store's reads the dashboard's charts and charges search use; never a write. */
export type DashboardStore = Pick<SandboxStore, 'listObjects' | 'listEvents'>

/**
 * What the dashboard reads beside the API, for what the API does not answer: a charge's derived
 * status, totals over time, and how each events URL's deliveries went. Every read names the
 * signed-in account.
 */
export interface DashboardData {
  store: DashboardStore
  deliveries: DeliveryAttemptLog
  now(): Date
}

export interface DashboardOptions {
  /**
   * The sandbox API to browse, as a fetch function: normally the sandbox app's own `fetch`, so
   * the dashboard's calls never leave the process. Requests go to `{origin}/v2/…` with the
   * signed-in account's Basic credentials.
   */
  api: ApiFetch
  /** The sandbox's state, read directly for the charges list, the overview and deliveries. */
  data: DashboardData
  /**
   * Counts refused sign-ins per browser address and account; the sandbox shares its API's, so
   * guesses made on either count toward one limit. Default: a throttle of its own, per address.
   */
  throttle?: CredentialThrottle
}

export interface ResolvedDashboardOptions {
  api: ApiFetch
  data: DashboardData
  /** How often the page asks for new events and delivery attempts. */
  pollIntervalMs: number
  /** A session unused this long must sign in again. */
  sessionIdleTimeoutMs: number
  /** Sessions kept at once; beyond it the least recently used is signed out. */
  maxSessions: number
  throttle: CredentialThrottle
}

export function resolveDashboardOptions(options: DashboardOptions): ResolvedDashboardOptions {
  return {
    api: options.api,
    data: options.data,
    pollIntervalMs: 3000,
    sessionIdleTimeoutMs: 8 * 60 * 60 * 1000,
    maxSessions: 1000,
    throttle: options.throttle ?? createCredentialThrottle([]),
  }
}
