import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatMoney, minorToDecimalString, parseMajorAmount, toApiAmount } from '../src/money.js'

describe('money', () => {
  it('parses typed amounts by the currency minor digits', () => {
    expect(parseMajorAmount('12.5', 'USD')).toBe(1250n)
    expect(parseMajorAmount(' 0.01 ', 'USD')).toBe(1n)
    expect(parseMajorAmount('1800', 'JPY')).toBe(1800n)
    expect(parseMajorAmount('1.005', 'BHD')).toBe(1005n)
    for (const bad of ['', '12.345', '-1', '1e3', '1,000', '0x10', '12.', '.5', 'abc']) {
      expect(parseMajorAmount(bad, 'USD'), bad).toBeUndefined()
    }
    expect(parseMajorAmount('1.5', 'JPY')).toBeUndefined()
  })

  it('formats exactly, even beyond 2^53', () => {
    expect(minorToDecimalString(5n, 'USD')).toBe('0.05')
    expect(minorToDecimalString(1800n, 'JPY')).toBe('1800')
    expect(formatMoney(2490n, 'USD')).toBe('$24.90')
    expect(formatMoney(1800n, 'JPY')).toBe('¥1,800')
    expect(formatMoney(900719925474099312n, 'USD')).toBe('$9,007,199,254,740,993.12')
    expect(toApiAmount(602000020n, 'USD')).toBe(6020000.2)
  })

  it('round-trips minor units through text for 0-, 2- and 3-digit currencies', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 999_999_999_999_999n }),
        fc.constantFrom('USD', 'JPY', 'BHD'),
        (minor, currency) => {
          const text = minorToDecimalString(minor, currency)
          expect(parseMajorAmount(text, currency)).toBe(minor)
        },
      ),
    )
  })

  it('never throws on arbitrary typed text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const minor = parseMajorAmount(text, 'USD')
        if (minor !== undefined) expect(minor).toBeGreaterThanOrEqual(0n)
      }),
    )
  })
})
