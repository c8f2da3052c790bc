import type { MiddlewareHandler } from 'hono'
import type { RateLimitOptions } from '../accounts/account-options'
import { tooManyRequests } from './api-problem'
import type { SandboxEnv } from './sandbox-env'

/** Generous, so benchmarks and test suites never meet it; lower it per account to test 429s. */
export const defaultRateLimit: RateLimitOptions = { requestsPerSecond: 10_000, burst: 20_000 }

interface Bucket {
  tokens: number
  updatedAt: number
}

/**
 * A token bucket per account: `requestsPerSecond` sustained, `burst` at once. Over it: 429
 * 02.01.0000 with `Retry-After` in whole seconds.
 */
export function rateLimit(sandboxDefault: RateLimitOptions | false): MiddlewareHandler<SandboxEnv> {
  const buckets = new Map<string, Bucket>()
  return async (c, next) => {
    const account = c.get('account')
    const limit = account.rateLimit === undefined ? sandboxDefault : account.rateLimit
    if (limit !== false) {
      const retryAfter = take(buckets, account.id, limit, performance.now())
      if (retryAfter !== undefined) throw tooManyRequests(retryAfter)
    }
    await next()
  }
}

/** Takes one token; answers the seconds to wait when there is none. */
function take(
  buckets: Map<string, Bucket>,
  key: string,
  { requestsPerSecond, burst = requestsPerSecond }: RateLimitOptions,
  now: number,
): number | undefined {
  const bucket = buckets.get(key) ?? { tokens: burst, updatedAt: now }
  bucket.tokens = Math.min(
    burst,
    bucket.tokens + ((now - bucket.updatedAt) / 1000) * requestsPerSecond,
  )
  bucket.updatedAt = now
  buckets.set(key, bucket)
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1
    return undefined
  }
  return Math.max(1, Math.ceil((1 - bucket.tokens) / requestsPerSecond))
}
