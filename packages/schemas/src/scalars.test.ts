import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/v4'
import { timestamp } from '../test/arbitraries'
import { createEventsUrlSchema, eventsUrlSchema, formatZodIssues, timestampSchema } from './index'

describe('timestampSchema', () => {
  it('accepts ISO 8601 with Z or an offset', () => {
    for (const value of [
      '2025-03-14T15:09:26Z',
      '2025-03-14T15:09:26.535Z',
      '2025-03-14T15:09:26-06:00',
      '2025-03-14T15:09:26.123456+05:30',
    ]) {
      expect(timestampSchema.safeParse(value).success, value).toBe(true)
    }
  })

  it('rejects local times, dates alone and other formats, saying what is expected', () => {
    for (const value of [
      '2025-03-14T15:09:26',
      '2025-03-14',
      '14/03/2025 15:09',
      'Fri, 14 Mar 2025 15:09:26 GMT',
      '2025-02-30T00:00:00Z',
      1741964966,
    ]) {
      expect(timestampSchema.safeParse(value).success, String(value)).toBe(false)
    }
    expect(timestampSchema.safeParse('2025-03-14T15:09:26').error?.issues[0]?.message).toMatch(
      /time zone offset or Z/,
    )
  })

  it('accepts every generated timestamp', () => {
    fc.assert(fc.property(timestamp, (value) => timestampSchema.safeParse(value).success))
  })
})

describe('eventsUrlSchema', () => {
  it('is https only by default', () => {
    expect(eventsUrlSchema.safeParse('https://shop.example.com/hooks').success).toBe(true)
    for (const bad of [
      'http://shop.example.com/hooks',
      'http://127.0.0.1:3000/hooks',
      'ftp://x.y',
      'not a url',
      '',
    ]) {
      const result = eventsUrlSchema.safeParse(bad)
      expect(result.success, bad).toBe(false)
      expect(result.error?.issues[0]?.message).toBe('Expected an https:// URL')
    }
  })

  it('allows plain http to loopback hosts only when asked', () => {
    const schema = createEventsUrlSchema({ allowLoopbackHttp: true })
    for (const good of [
      'http://127.0.0.1:4321/hooks',
      'http://localhost:3000/events?x=1',
      'http://[::1]:8080/',
      'https://shop.example.com/hooks',
    ]) {
      expect(schema.safeParse(good).success, good).toBe(true)
    }
    for (const bad of [
      'http://example.com/',
      'http://127.0.0.2/',
      'http://localhost.evil.com/',
      'ws://localhost/',
    ]) {
      expect(schema.safeParse(bad).success, bad).toBe(false)
    }
  })

  it('allows plain http to any host when asked, and nothing but http(s)', () => {
    const schema = createEventsUrlSchema({ allowLoopbackHttp: true, allowAnyHttp: true })
    for (const good of [
      'http://webhooks:3000/events',
      'http://192.168.1.20/hooks',
      'https://a.example/',
    ]) {
      expect(schema.safeParse(good).success, good).toBe(true)
    }
    for (const bad of ['ws://webhooks/', 'ftp://webhooks/', '/webhooks', 'webhooks:3000']) {
      const result = schema.safeParse(bad)
      expect(result.success, bad).toBe(false)
      expect(result.error?.issues[0]?.message).toBe('Expected an http:// or https:// URL')
    }
  })
})

describe('timestampSchema messages', () => {
  it('says required for a missing value and names the format for a bad one', () => {
    const schema = z.object({ at: timestampSchema })
    const missing = schema.safeParse({})
    expect(missing.success ? {} : formatZodIssues(missing.error)).toEqual({
      at: ['Required: expected string'],
    })
    const wrong = schema.safeParse({ at: '2025-01-31 12:00' })
    expect(wrong.success ? {} : formatZodIssues(wrong.error)).toEqual({
      at: [
        'Expected an ISO 8601 timestamp with a time zone offset or Z, such as "2025-01-31T12:00:00Z"',
      ],
    })
  })
})
