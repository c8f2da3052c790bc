/** How long to wait between attempts; every field is in milliseconds. */
export interface BackoffOptions {
  /** The ceiling of the first wait (doubles per retry). Default 500. */
  initialDelayMs?: number
  /** The largest ceiling a wait can reach. Default 8000. */
  maxDelayMs?: number
  /** The longest `Retry-After` honoured; a longer one is cut to this. Default 60000. */
  maxRetryAfterMs?: number
}

export type ResolvedBackoff = Required<BackoffOptions>

export const defaultBackoff: ResolvedBackoff = {
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
}

/**
 * Whether an HTTP status is worth another attempt: 408, 429 and 5xx. Other 4xx (and 402
 * declines) answer the same way every time, so retrying them only repeats the failure.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500
}

/**
 * The wait before retry number `retry` (0 for the first retry): "full jitter", a uniform random
 * wait below an exponentially growing, capped ceiling, so many clients that failed together do not
 * retry together.
 */
export function backoffDelay(retry: number, backoff: ResolvedBackoff, random = Math.random) {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * 2 ** retry)
  return Math.floor(random() * ceiling)
}

/**
 * A `Retry-After` header in milliseconds: delay-seconds (`"2"`, also `"1.5"`) or an HTTP date.
 * `undefined` when absent or unreadable; never negative.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined
  const text = header.trim()
  if (text === '') return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  // HTTP dates name the month (IMF-fixdate, RFC 850, asctime); `Date.parse` alone would also
  // take "-3" or "2024" as dates.
  if (!/[a-z]{3}/i.test(text)) return undefined
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - nowMs)
}
