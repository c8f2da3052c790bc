import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  deliveredEventIdSchema,
  deliveredEventTypeSchema,
  deliveryPayloadSchema,
  deliveryUrl,
} from './index'

const eventId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}$/)
const eventType = fc
  .array(fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join('.'))
  .filter((type) => type.length <= 100)
const queryValue = fc.string({ maxLength: 8 })

describe('deliveryUrl', () => {
  it('names the event once on the query and keeps the rest of the URL (property)', () => {
    const merchantQuery = fc.array(
      fc.tuple(fc.constantFrom('event', 'event_type', 'token', 'shop'), queryValue),
      { maxLength: 5 },
    )
    fc.assert(
      fc.property(eventId, eventType, merchantQuery, (id, type, query) => {
        const eventsUrl = new URL(`https://shop.example/hooks?${new URLSearchParams(query)}`)
        const before = eventsUrl.href
        const url = deliveryUrl(eventsUrl, { id, type })
        expect(url.searchParams.getAll('event')).toEqual([id])
        expect(url.searchParams.getAll('event_type')).toEqual([type])
        const others = (params: URLSearchParams) =>
          [...params].filter(([name]) => name !== 'event' && name !== 'event_type')
        expect(others(url.searchParams)).toEqual(others(eventsUrl.searchParams))
        expect(url.origin + url.pathname).toBe('https://shop.example/hooks')
        expect(eventsUrl.href).toBe(before)
      }),
    )
  })
})

describe('the id and type a delivery names', () => {
  it('takes every id and type the service sends (property)', () => {
    fc.assert(
      fc.property(eventId, eventType, (id, type) => {
        expect(deliveredEventIdSchema.safeParse(id).success).toBe(true)
        expect(deliveredEventTypeSchema.safeParse(type).success).toBe(true)
        expect(deliveryPayloadSchema.parse({ id, type })).toEqual({ id, type })
      }),
    )
  })

  it('refuses an id that is not one plain path segment, and a malformed or long type', () => {
    for (const id of ['', '.', '..', '../ev_1', 'ev/1', '-ev', 'ev 1', 'é', 'e'.repeat(256)]) {
      expect(deliveredEventIdSchema.safeParse(id).success, id).toBe(false)
    }
    for (const type of [
      '',
      '.',
      'payment.',
      '.success',
      'payment..success',
      'a-b',
      'a'.repeat(101),
    ]) {
      expect(deliveredEventTypeSchema.safeParse(type).success, type).toBe(false)
    }
    const result = deliveryPayloadSchema.safeParse({ id: '../ev_1', type: 'charge.created' })
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        ['id'],
        'Expected an event id: 1-255 letters, digits, "_", "-", "." or ":", starting with a letter or digit',
      ],
    ])
  })
})
