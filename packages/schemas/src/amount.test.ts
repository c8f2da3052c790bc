import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { currencies } from '../test/arbitraries'
import {
  AmountError,
  amountSchema,
  compareAmounts,
  currencyMinorDigits,
  currencySchema,
  fromMinorUnits,
  isAmountInMinorUnits,
  isKnownCurrency,
  maxAmount,
  toMinorUnits,
  withoutFloatNoise,
} from './index'

describe('currencyMinorDigits', () => {
  it('reads the minor digits from Intl: JPY 0, USD 2, BHD 3', () => {
    expect(currencyMinorDigits('JPY')).toBe(0)
    expect(currencyMinorDigits('USD')).toBe(2)
    expect(currencyMinorDigits('BHD')).toBe(3)
    expect(currencyMinorDigits('KWD')).toBe(3)
    expect(currencyMinorDigits('CLP')).toBe(0)
    expect(currencyMinorDigits('MXN')).toBe(2)
  })

  it('gets an answer from Intl for every currency it knows (the `?? 2` fallback never runs)', () => {
    for (const currency of Intl.supportedValuesOf('currency')) {
      const { maximumFractionDigits } = new Intl.NumberFormat('en', {
        style: 'currency',
        currency,
      }).resolvedOptions()
      expect(maximumFractionDigits, currency).toBeTypeOf('number')
      expect(currencyMinorDigits(currency)).toBe(maximumFractionDigits)
    }
  })

  it('rejects a code Intl does not know, saying what to pass', () => {
    expect(() => currencyMinorDigits('XYZ')).toThrow(AmountError)
    expect(() => currencyMinorDigits('usd')).toThrow(/ISO 4217 code such as "USD"/)
  })
})

describe('currencySchema', () => {
  it('accepts known upper-case codes and rejects the rest', () => {
    expect(currencySchema.safeParse('EUR').success).toBe(true)
    expect(isKnownCurrency('EUR')).toBe(true)
    for (const bad of ['eur', 'EURO', 'XYZ', '', 42]) {
      const result = currencySchema.safeParse(bad)
      expect(result.success, String(bad)).toBe(false)
    }
    expect(currencySchema.safeParse('XYZ').error?.issues[0]?.message).toMatch(/ISO 4217/)
  })
})

describe('amountSchema', () => {
  it('accepts positive finite numbers only', () => {
    expect(amountSchema.safeParse(0.01).success).toBe(true)
    expect(amountSchema.safeParse(6020000.2).success).toBe(true)
    for (const bad of [0, -1, Number.POSITIVE_INFINITY, Number.NaN, '10', null]) {
      expect(amountSchema.safeParse(bad).success, String(bad)).toBe(false)
    }
  })
})

describe('isAmountInMinorUnits', () => {
  it('checks decimals against the currency', () => {
    expect(isAmountInMinorUnits(100, 'JPY')).toBe(true)
    expect(isAmountInMinorUnits(100.5, 'JPY')).toBe(false)
    expect(isAmountInMinorUnits(10.25, 'USD')).toBe(true)
    expect(isAmountInMinorUnits(10.255, 'USD')).toBe(false)
    expect(isAmountInMinorUnits(1.234, 'BHD')).toBe(true)
    expect(isAmountInMinorUnits(1.2345, 'BHD')).toBe(false)
    expect(isAmountInMinorUnits('10.50', 'USD')).toBe(true)
    expect(isAmountInMinorUnits('10.500', 'USD')).toBe(true)
    expect(isAmountInMinorUnits(1e-7, 'USD')).toBe(false)
    expect(isAmountInMinorUnits(1e21, 'JPY')).toBe(true)
  })

  it('is false for a non-finite amount or an unknown currency', () => {
    expect(isAmountInMinorUnits(Number.NaN, 'USD')).toBe(false)
    expect(isAmountInMinorUnits(Number.POSITIVE_INFINITY, 'USD')).toBe(false)
    expect(isAmountInMinorUnits(10, 'XYZ')).toBe(false)
    expect(isAmountInMinorUnits('ten', 'USD')).toBe(false)
  })
})

describe('toMinorUnits / fromMinorUnits', () => {
  it('converts exactly, where float multiplication drifts', () => {
    expect(1.005 * 100).not.toBe(100.5)
    expect(toMinorUnits(1.005, 'BHD')).toBe(1005n)
    expect(toMinorUnits(0.29, 'USD')).toBe(29n)
    expect(0.29 * 100).not.toBe(29)
    expect(toMinorUnits(6020000.2, 'USD')).toBe(602000020n)
    expect(toMinorUnits('12.5', 'USD')).toBe(1250n)
    expect(toMinorUnits(500, 'JPY')).toBe(500n)
    expect(toMinorUnits('1e3', 'JPY')).toBe(1000n)
    expect(toMinorUnits(-3.1, 'USD')).toBe(-310n)
    expect(fromMinorUnits(602000020n, 'USD')).toBe(6020000.2)
    expect(fromMinorUnits(1005n, 'BHD')).toBe(1.005)
    expect(fromMinorUnits(500n, 'JPY')).toBe(500)
    expect(fromMinorUnits(-5n, 'USD')).toBe(-0.05)
  })

  it('refuses amounts with too many decimals, naming the currency', () => {
    expect(() => toMinorUnits(0.1 + 0.2, 'USD')).toThrow(/USD allows 2/)
    expect(() => toMinorUnits(100.5, 'JPY')).toThrow(AmountError)
    expect(() => toMinorUnits(Number.NaN, 'USD')).toThrow(/NaN is not a finite decimal/)
    expect(() => toMinorUnits('abc', 'USD')).toThrow(/"abc"/)
  })

  it('refuses minor units a JSON number cannot hold exactly', () => {
    expect(() => fromMinorUnits(10n ** 15n, 'USD')).toThrow(/keep it in minor units/)
    expect(fromMinorUnits(10n ** 15n - 1n, 'USD')).toBe(9999999999999.99)
  })

  it('round-trips every minor amount of up to 15 digits in every currency', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.bigInt({ min: -999_999_999_999_999n, max: 999_999_999_999_999n }),
        (currency, minor) => {
          const major = fromMinorUnits(minor, currency)
          expect(isAmountInMinorUnits(major, currency)).toBe(true)
          expect(toMinorUnits(major, currency)).toBe(minor)
          expect(toMinorUnits(String(major), currency)).toBe(minor)
        },
      ),
    )
  })
})

describe('withoutFloatNoise', () => {
  it('reads an amount computed in floating point as the amount it stands for', () => {
    expect(withoutFloatNoise(20.799999999999997, 'EUR')).toBe(20.8)
    expect(withoutFloatNoise(0.1 + 0.2, 'USD')).toBe(0.3)
    expect(withoutFloatNoise('19.990000000000002', 'EUR')).toBe(19.99)
    expect(withoutFloatNoise(1.0000000004, 'JPY')).toBe(1)
    expect(withoutFloatNoise(12.3450000001, 'BHD')).toBe(12.345)
  })

  it('leaves an amount within the currency alone, and refuses to round a finer one', () => {
    expect(withoutFloatNoise(20.8, 'EUR')).toBe(20.8)
    expect(withoutFloatNoise('20.80', 'EUR')).toBe(20.8)
    expect(withoutFloatNoise(20.505, 'EUR')).toBeUndefined()
    expect(withoutFloatNoise(1.000000002, 'EUR')).toBeUndefined()
    expect(withoutFloatNoise(1e-7, 'EUR')).toBeUndefined()
    expect(withoutFloatNoise(0.5, 'JPY')).toBeUndefined()
    expect(() => withoutFloatNoise(Number.NaN, 'EUR')).toThrow(AmountError)
    expect(() => withoutFloatNoise(1, 'XYZ')).toThrow(/Unknown currency/)
  })

  it('is exact at the 1e-9 boundary, whatever the sign', () => {
    expect(withoutFloatNoise('20.800000001', 'EUR')).toBe(20.8)
    expect(withoutFloatNoise('20.7999999990', 'EUR')).toBe(20.8)
    expect(withoutFloatNoise('20.8000000010000001', 'EUR')).toBeUndefined()
    expect(withoutFloatNoise('-20.799999999', 'EUR')).toBe(-20.8)
  })

  it('undoes the float error of summing two amounts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.bigInt({ min: 1n, max: 10n ** 8n }),
        fc.bigInt({ min: 1n, max: 10n ** 8n }),
        (currency, a, b) => {
          const sum = fromMinorUnits(a, currency) + fromMinorUnits(b, currency)
          expect(withoutFloatNoise(sum, currency)).toBe(fromMinorUnits(a + b, currency))
        },
      ),
    )
  })

  it('never reads an amount with one more decimal digit as noise', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 1, max: 9 }),
        (currency, minor, extra) => {
          const digits = currencyMinorDigits(currency)
          const finer = `${toMinorUnitsText(minor, digits)}${digits === 0 ? '.' : ''}${extra}`
          expect(withoutFloatNoise(finer, currency)).toBeUndefined()
          expect(withoutFloatNoise(Number(finer), currency)).toBeUndefined()
        },
      ),
    )
  })
})

/** `minor` as decimal text with `digits` decimals (1234n, 2 → "12.34"). */
function toMinorUnitsText(minor: bigint, digits: number): string {
  const text = minor.toString().padStart(digits + 1, '0')
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`
}

describe('compareAmounts', () => {
  it('compares as decimals', () => {
    expect(compareAmounts(0.1 + 0.2, 0.3)).toBe(1)
    expect(compareAmounts(10, '10.00')).toBe(0)
    expect(compareAmounts(9.99, 10)).toBe(-1)
    expect(compareAmounts(1e21, '1000000000000000000000.00')).toBe(0)
    expect(compareAmounts(-1, 0.5)).toBe(-1)
    expect(() => compareAmounts(Number.NaN, 1)).toThrow(/argument a/)
  })

  it('agrees with the order of minor units', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        (currency, a, b) => {
          const expected = a === b ? 0 : a < b ? -1 : 1
          expect(compareAmounts(fromMinorUnits(a, currency), fromMinorUnits(b, currency))).toBe(
            expected,
          )
          expect(compareAmounts(fromMinorUnits(b, currency), fromMinorUnits(a, currency))).toBe(
            -expected || 0,
          )
        },
      ),
    )
  })
})

describe('maxAmount', () => {
  it('is the largest amount whose minor units have at most 15 digits', () => {
    expect(maxAmount('USD')).toBe('9999999999999.99')
    expect(maxAmount('JPY')).toBe('999999999999999')
    expect(maxAmount('BHD')).toBe('999999999999.999')
    expect(() => maxAmount('XYZ')).toThrow(AmountError)
  })

  it('survives the JSON number round trip exactly in every currency Intl knows', () => {
    for (const currency of Intl.supportedValuesOf('currency')) {
      const max = maxAmount(currency)
      expect(toMinorUnits(max, currency)).toBe(999_999_999_999_999n)
      expect(toMinorUnits(Number(max), currency)).toBe(999_999_999_999_999n)
      expect(String(fromMinorUnits(999_999_999_999_999n, currency))).toBe(max.replace(/\.?0+$/, ''))
    }
  })
})

describe('string exponents', () => {
  // Exponents far beyond any double's (±324): reading them digit by digit used to take seconds
  // (1e5000000) or exhaust memory; they are now refused on sight.
  const hugeExponent = fc.oneof(
    fc.integer({ min: 325, max: 2_000_000_000 }),
    fc.constantFrom(325, 5_000_000, 3_000_000, Number.MAX_SAFE_INTEGER),
  )
  const exponentText = fc
    .tuple(hugeExponent, fc.constantFrom('', '+', '-'), fc.constantFrom('e', 'E'))
    .map(([exponent, sign, e]) => `${e}${sign}${exponent}`)
  const mantissa = fc.constantFrom('1', '12.5', '0.001', '-3', '999999999999999')

  it('refuses an exponent beyond ±324 everywhere a decimal string is read', () => {
    fc.assert(
      fc.property(mantissa, exponentText, fc.constantFrom(...currencies), (m, e, currency) => {
        const amount = `${m}${e}`
        expect(isAmountInMinorUnits(amount, currency)).toBe(false)
        expect(() => toMinorUnits(amount, currency)).toThrow(AmountError)
        expect(() => toMinorUnits(amount, currency)).toThrow(/exponent, if any, of at most ±324/)
        expect(() => compareAmounts(amount, 1)).toThrow(/argument a .*at most ±324/)
        expect(() => compareAmounts(1, amount)).toThrow(/argument b .*at most ±324/)
      }),
      { numRuns: 200 },
    )
    expect(isAmountInMinorUnits('1e5000000', 'USD')).toBe(false)
    expect(() => compareAmounts('1e-3000000', 1)).toThrow(AmountError)
    expect(isAmountInMinorUnits(`1e${'9'.repeat(10_000)}`, 'JPY')).toBe(false)
  })

  /** `units` × 10^exponent without an exponent: `(125n, -2)` → `'1.25'`. */
  function writtenOut(units: bigint, exponent: number): string {
    if (exponent >= 0) return `${units}${'0'.repeat(exponent)}`
    const digits = String(units).padStart(1 - exponent, '0')
    return `${digits.slice(0, exponent)}.${digits.slice(exponent)}`
  }

  it('reads every exponent within ±324 exactly, like the same number written out', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.integer({ min: -323, max: 324 }),
        (units, exponent) => {
          expect(compareAmounts(`${units}e${exponent}`, writtenOut(units, exponent))).toBe(0)
          expect(compareAmounts(`${units}e${exponent}`, `${units}0e${exponent - 1}`)).toBe(0)
        },
      ),
      { numRuns: 300 },
    )
    expect(isAmountInMinorUnits('1e324', 'JPY')).toBe(true)
    expect(isAmountInMinorUnits('1e-324', 'BHD')).toBe(false)
    expect(toMinorUnits('1234e-2', 'USD')).toBe(1234n)
    expect(compareAmounts(5e-324, '5e-324')).toBe(0)
  })
})
