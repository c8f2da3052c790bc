import type { RecordedRequest } from '@chargekit/schemas'
import type { MiddlewareHandler } from 'hono'
import { getPath } from 'hono/utils/url'
import type { PageRequest, PageResult } from '../storage/records'
import type { SandboxEnv } from './sandbox-env'

/** One API request as the dashboard lists it (never headers or bodies). */
export type RecentRequest = RecordedRequest

export interface RecentRequests {
  record(accountId: string, request: RecentRequest): void
  /** Newest first. */
  list(accountId: string, page: PageRequest): PageResult<RecentRequest>
}

/** The last `maxPerAccount` API requests of each account, in memory. */
export function createRecentRequests(maxPerAccount = 200): RecentRequests {
  const byAccount = new Map<string, RecentRequest[]>()
  return {
    record(accountId, request) {
      const requests = byAccount.get(accountId) ?? []
      requests.push(request)
      if (requests.length > maxPerAccount) requests.splice(0, requests.length - maxPerAccount)
      byAccount.set(accountId, requests)
    },
    list(accountId, { offset, limit }) {
      const requests = byAccount.get(accountId) ?? []
      const end = Math.max(0, requests.length - offset)
      return {
        items: requests.slice(Math.max(0, end - limit), end).reverse(),
        total: requests.length,
      }
    },
  }
}

/**
 * Records each authenticated API request of an account, once answered; the dashboard's own
 * calls are left out, or browsing would fill the list with itself.
 */
export function recordRecentRequests(log: RecentRequests): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const started = performance.now()
    const createdAt = new Date().toISOString()
    await next()
    if (c.env?.fromDashboard === true) return
    const warnings = c.get('integrationWarnings')
    log.record(c.get('account').id, {
      id: c.get('requestId'),
      method: c.req.method,
      path: getPath(c.req.raw),
      status: c.res.status,
      created_at: createdAt,
      duration_ms: Math.round(performance.now() - started),
      warnings: [...(warnings?.list ?? [])],
      warnings_omitted: warnings?.omitted ?? 0,
    })
  }
}
