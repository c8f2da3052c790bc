import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  backoffDelay,
  defaultBackoff,
  isRetryableStatus,
  parseRetryAfter,
} from '../src/retry-policy'

describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0)

  it('reads delay-seconds, also with decimals', () => {
    expect(parseRetryAfter('2', now)).toBe(2000)
    expect(parseRetryAfter(' 0 ', now)).toBe(0)
    expect(parseRetryAfter('1.5', now)).toBe(1500)
  })

  it('reads an HTTP date as the time left until then, never negative', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 12:00:07 GMT', now)).toBe(7000)
    expect(parseRetryAfter('Wed, 01 Jan 2025 11:00:00 GMT', now)).toBe(0)
  })

  it('ignores a missing or unreadable header', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined()
    expect(parseRetryAfter('', now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter('-3', now)).toBeUndefined()
  })

  it('never throws and never answers a negative or non-finite wait', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 4_102_444_800_000 }), (header, at) => {
        const wait = parseRetryAfter(header, at)
        if (wait !== undefined) {
          expect(Number.isFinite(wait)).toBe(true)
          expect(wait).toBeGreaterThanOrEqual(0)
        }
      }),
    )
  })

  it('round-trips any whole number of seconds and any date', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (seconds) => {
        expect(parseRetryAfter(String(seconds), now)).toBe(seconds * 1000)
        expect(parseRetryAfter(new Date(now + seconds * 1000).toUTCString(), now)).toBe(
          seconds * 1000,
        )
      }),
    )
  })
})

describe('backoffDelay', () => {
  it('stays below a doubling ceiling capped at maxDelayMs (full jitter)', () => {
    fc.assert(
      fc.property(
        fc.nat(30),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, draw) => {
          const delay = backoffDelay(retry, defaultBackoff, () => draw)
          const ceiling = Math.min(
            defaultBackoff.maxDelayMs,
            defaultBackoff.initialDelayMs * 2 ** retry,
          )
          expect(delay).toBeGreaterThanOrEqual(0)
          expect(delay).toBeLessThan(ceiling)
        },
      ),
    )
    expect(backoffDelay(0, defaultBackoff, () => 0.999)).toBe(499)
    expect(backoffDelay(10, defaultBackoff, () => 0.5)).toBe(4000)
  })
})

describe('isRetryableStatus', () => {
  it('retries 408, 429 and 5xx only', () => {
    const retryable = [408, 429, 500, 502, 503, 504, 599]
    const final = [400, 401, 402, 403, 404, 409, 413, 415, 422]
    expect(retryable.every(isRetryableStatus)).toBe(true)
    expect(final.some(isRetryableStatus)).toBe(false)
  })
})
