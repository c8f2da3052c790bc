import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toQueryString } from '../src/query-string'

describe('toQueryString', () => {
  it('writes the forms the event list reads', () => {
    expect(
      toQueryString({
        type: ['payment.success', 'refund.success'],
        metadata: { order_id: '42', 'a b': 'x&y' },
        dismissed: false,
        result_status: 0,
        created_gte: new Date('2025-01-02T03:04:05.000Z'),
        charge: undefined,
        page: 2,
      }),
    ).toBe(
      '?type=payment.success&type=refund.success&metadata%5Border_id%5D=42&metadata%5Ba+b%5D=x%26y&dismissed=false&result_status=0&created_gte=2025-01-02T03%3A04%3A05.000Z&page=2',
    )
    expect(toQueryString({})).toBe('')
    expect(toQueryString(undefined)).toBe('')
  })

  it('round-trips any keys and values through URLSearchParams', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1 }), fc.array(fc.string(), { minLength: 1 })),
        fc.dictionary(fc.string({ minLength: 1 }), fc.string()),
        (lists, metadata) => {
          const query = toQueryString({ ...lists, metadata })
          const parsed = new URLSearchParams(query.slice(1))
          for (const [key, values] of Object.entries(lists)) {
            if (key === 'metadata') continue
            expect(parsed.getAll(key)).toEqual(values)
          }
          for (const [key, value] of Object.entries(metadata)) {
            expect(parsed.getAll(`metadata[${key}]`)).toEqual([value])
          }
        },
      ),
    )
  })
})
