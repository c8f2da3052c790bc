import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isIdempotencyKey } from './idempotency-key'

const visible = fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code))
const invisible = fc
  .oneof(fc.integer({ min: 0, max: 0x20 }), fc.integer({ min: 0x7f, max: 0xffff }))
  .map((code) => String.fromCharCode(code))

describe('isIdempotencyKey', () => {
  it('takes 1 to 255 visible ASCII characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: visible, minLength: 1, maxLength: 255 }), (key) => {
        expect(isIdempotencyKey(key)).toBe(true)
      }),
    )
    expect(isIdempotencyKey('3f0c2a5e-8d1b-4c7a-9e2f-6b5d4a3c2b1a')).toBe(true)
  })

  it('refuses a space, a control or non-ASCII character anywhere, and any other length', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: visible, maxLength: 127 }),
        invisible,
        fc.string({ unit: visible, maxLength: 127 }),
        (before, bad, after) => {
          expect(isIdempotencyKey(before + bad + after)).toBe(false)
        },
      ),
    )
    expect(isIdempotencyKey('')).toBe(false)
    expect(isIdempotencyKey('k'.repeat(255))).toBe(true)
    expect(isIdempotencyKey('k'.repeat(256))).toBe(false)
  })

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, ['key'], { key: 'key' }]) {
      expect(isIdempotencyKey(value)).toBe(false)
    }
  })
})
