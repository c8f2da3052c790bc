import * as z from 'zod/v4'
import { AmountError } from './amount-error'
import { currencyMinorDigits } from './currency-codes'
import { type Decimal, formatUnits, maxDecimalExponent, parseDecimal, rescale } from './decimal'

/** A monetary amount in major units, as the service sends it: a positive finite JSON number. */
export const amountSchema = z.number().positive({
  error: 'Expected a positive amount (greater than 0)',
})

/** An amount that may be zero, such as a captured or refunded total. */
export const nonNegativeAmountSchema = z.number().min(0, {
  error: 'Expected an amount of 0 or more',
})

// Part of the "not a decimal" messages: a string such as "1e5000" is refused for its exponent.
const exponentHint = ` (an exponent, if any, of at most ±${maxDecimalExponent})`

/**
 * The most minor units an amount may have: beyond 15 significant digits a double no longer holds
 * every decimal exactly, so a larger amount could not travel as a JSON number without changing.
 */
export const maxExactMinorUnits = 999_999_999_999_999n

/**
 * An amount in a request body that names no currency (refund, reversal, dispute): positive and
 * no larger than any currency allows (999999999999999, for currencies without minor units). The
 * server checks it against the currency of the object it applies to.
 */
export const requestAmountSchema = amountSchema.max(Number(maxExactMinorUnits), {
  error: `Expected at most ${maxExactMinorUnits}: a larger amount cannot be held exactly`,
})

/**
 * The largest amount of `currency` whose minor units stay exact, as text: `'9999999999999.99'`
 * for USD, `'999999999999999'` for JPY. Throws for an unknown currency.
 */
export function maxAmount(currency: string): string {
  return formatUnits(maxExactMinorUnits, currencyMinorDigits(currency))
}

/** Exact conversion to minor units: `toMinorUnits(12.3, 'USD') === 1230n`, `(500, 'JPY') === 500n`. */
export function toMinorUnits(amount: number | string, currency: string): bigint {
  const digits = currencyMinorDigits(currency)
  const decimal = parseDecimal(amount)
  if (decimal === undefined) {
    throw new AmountError(
      `Amount ${describe(amount)} is not a finite decimal number: pass a number such as 12.5 or a string such as "12.50"${exponentHint}.`,
    )
  }
  if (decimal.scale > digits) {
    throw new AmountError(
      `Amount ${String(amount)} has ${decimal.scale} decimals but ${currency} allows ${digits}: round it to ${digits} decimals first.`,
    )
  }
  return rescale(decimal, digits)
}

/** Exact conversion from minor units to the JSON number the service uses: `(1230n, 'USD') === 12.3`. */
export function fromMinorUnits(minor: bigint, currency: string): number {
  if (minor > maxExactMinorUnits || minor < -maxExactMinorUnits) {
    throw new AmountError(
      `${minor} minor units has more than 15 digits and cannot be a JSON number exactly: keep it in minor units (bigint).`,
    )
  }
  return Number(formatUnits(minor, currencyMinorDigits(currency)))
}

/**
 * The amount of `currency` that `amount` stands for when it was computed in floating point, as
 * `20.799999999999997` stands for 20.80 EUR (PHP's `$deposit + $tax`, JavaScript's `0.1 + 0.2`).
 * An amount within the currency's minor digits is returned as it is; one farther than 1e-9 from
 * every amount of the currency, such as `20.505` EUR, is a finer amount, not noise: `undefined`.
 * Exact: the decimal digits are compared, never float differences.
 */
export function withoutFloatNoise(amount: number | string, currency: string): number | undefined {
  const digits = currencyMinorDigits(currency)
  const decimal = parseDecimal(amount)
  if (decimal === undefined) {
    throw new AmountError(
      `Amount ${describe(amount)} is not a finite decimal number: pass a number such as 12.5 or a string such as "12.50"${exponentHint}.`,
    )
  }
  if (decimal.scale <= digits) return Number(formatUnits(decimal.units, decimal.scale))
  const dropped = 10n ** BigInt(decimal.scale - digits)
  const magnitude = decimal.units < 0n ? -decimal.units : decimal.units
  const rest = magnitude % dropped
  const roundsUp = rest * 2n >= dropped
  // How far the amount is from the nearest amount of the currency, in units of 10^-scale.
  const distance = roundsUp ? dropped - rest : rest
  if (distance * floatNoiseUnits > 10n ** BigInt(decimal.scale)) return undefined
  const minor = magnitude / dropped + (roundsUp ? 1n : 0n)
  return Number(formatUnits(decimal.units < 0n ? -minor : minor, digits))
}

// 1e-9 as a divisor: a distance d (in units of 10^-scale) is noise when d / 10^scale <= 1 / this.
const floatNoiseUnits = 1_000_000_000n

/** Compares two amounts exactly, as decimals (0.1 + 0.2 style float error cannot flip it). */
export function compareAmounts(a: number | string, b: number | string): -1 | 0 | 1 {
  const left = requireDecimal(a, 'a')
  const right = requireDecimal(b, 'b')
  const scale = Math.max(left.scale, right.scale)
  const difference = rescale(left, scale) - rescale(right, scale)
  return difference === 0n ? 0 : difference < 0n ? -1 : 1
}

function requireDecimal(value: number | string, name: string): Decimal {
  const decimal = parseDecimal(value)
  if (decimal === undefined) {
    throw new AmountError(
      `compareAmounts: argument ${name} (${describe(value)}) is not a finite decimal number${exponentHint}.`,
    )
  }
  return decimal
}

function describe(value: number | string): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}
