import {
  currencyMinorDigits,
  fromMinorUnits,
  isAmountInMinorUnits,
  toMinorUnits,
} from '@chargekit/schemas'

/**
 * Money in the shop is integer minor units (bigint). These helpers are the only places where
 * minor units meet text: parsing a typed amount and formatting one for display, both by string
 * arithmetic so no amount ever goes through a binary float.
 */

/** '12.5' in USD → 1250n; undefined when the text is not an amount with at most the currency's digits. */
export function parseMajorAmount(text: string, currency: string): bigint | undefined {
  // Plain decimals only: no sign, exponent or separators a customer did not mean.
  const trimmed = text.trim()
  if (!/^\d{1,15}(?:\.\d{1,3})?$/.test(trimmed)) return undefined
  if (!isAmountInMinorUnits(trimmed, currency)) return undefined
  const minor = toMinorUnits(trimmed, currency)
  return minor <= maxApiMinorUnits ? minor : undefined
}

/** Past 15 digits the service's JSON number could no longer carry the amount exactly. */
const maxApiMinorUnits = 999_999_999_999_999n

/** 1250n USD → '12.50' (the form a text input or the API's decimal wants). */
export function minorToDecimalString(minor: bigint, currency: string): string {
  const digits = currencyMinorDigits(currency)
  const sign = minor < 0n ? '-' : ''
  const text = (minor < 0n ? -minor : minor).toString().padStart(digits + 1, '0')
  if (digits === 0) return `${sign}${text}`
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`
}

/**
 * 1250n USD → '$12.50'; in `pt-PT`, 1850n EUR → '18,50 €'. Intl formats the decimal string
 * exactly (no float conversion).
 */
export function formatMoney(minor: bigint, currency: string, locale = 'en-US'): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency })
  // Intl.NumberFormat v3 accepts decimal strings; the lib typings only know number | bigint.
  return format.format(minorToDecimalString(minor, currency) as unknown as number)
}

/** The JSON number the service expects: major units, at most the currency's minor digits. */
export function toApiAmount(minor: bigint, currency: string): number {
  return fromMinorUnits(minor, currency)
}
