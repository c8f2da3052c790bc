import { AmountError } from './amount-error'
import { decimalScale } from './decimal'

// Intl knows which codes it has data for; a hand-written ISO 4217 table would drift from it.
const knownCurrencies: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'))

// Resolving NumberFormat options is slow (microseconds); amounts are checked on hot paths.
const minorDigitsCache = new Map<string, number>()

/** What a currency code that {@link isKnownCurrency} refuses is told. */
export const unknownCurrencyMessage =
  'Expected an ISO 4217 currency code known to Intl, such as "USD" (upper case)'

/** Whether `code` is an upper-case ISO 4217 code this runtime's Intl has data for. */
export function isKnownCurrency(code: string): boolean {
  return knownCurrencies.has(code)
}

/**
 * How many minor-unit digits the currency uses (JPY 0, USD 2, BHD 3), from
 * `Intl.NumberFormat(…, { style: 'currency' }).resolvedOptions().maximumFractionDigits`.
 * Throws a `AmountError` for a code that is not a known ISO 4217 currency.
 */
export function currencyMinorDigits(currency: string): number {
  const cached = minorDigitsCache.get(currency)
  if (cached !== undefined) return cached
  if (!isKnownCurrency(currency)) {
    throw new AmountError(
      `Unknown currency ${JSON.stringify(currency)}: pass an upper-case ISO 4217 code such as "USD".`,
    )
  }
  // ECMA-402 always resolves fraction digits for a currency format that asks for no significant
  // digits, so Intl answers for every code; TypeScript's lib types the field optional only
  // because significant-digit formats omit it, and the fallback is there to satisfy that type.
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2
  minorDigitsCache.set(currency, digits)
  return digits
}

/**
 * Whether `amount` has no more decimals than `currency` has minor digits (JPY 0, USD 2, BHD 3).
 * False for a non-finite amount, a string exponent beyond ±324, or an unknown currency.
 */
export function isAmountInMinorUnits(amount: number | string, currency: string): boolean {
  if (!isKnownCurrency(currency)) return false
  const scale = decimalScale(amount)
  return scale !== undefined && scale <= currencyMinorDigits(currency)
}

/** What an amount with more decimals than `currency` has minor digits is told. */
export function minorUnitsMessage(currency: string): string {
  const digits = currencyMinorDigits(currency)
  return digits === 0
    ? `Expected a whole number: ${currency} has no minor unit`
    : `Expected at most ${digits} decimal${digits === 1 ? '' : 's'} for ${currency}`
}
