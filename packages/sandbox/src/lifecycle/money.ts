import {
  AmountError,
  currencyMinorDigits,
  fromMinorUnits,
  type IntegrationWarning,
  isAmountInMinorUnits,
  isKnownCurrency,
  maxAmount,
  toMinorUnits,
  withoutFloatNoise,
} from '@chargekit/schemas'
import type { Money } from '../processors/processor'
import type { StepContext } from './context'
import { invalidField } from './lifecycle-error'

/** An API amount with its exact minor units (string-based conversion: no float drift). */
export function money(amount: number, currency: string): Money {
  return { amount, currency, minorUnits: toMinorUnits(amount, currency) }
}

/**
 * A request's `amount` in the currency of the object it applies to (a refund in the payment's
 * currency), read as {@link amountWithoutFloatNoise} reads it: 400 naming `amount` when it has
 * more decimals than the currency allows, or more digits than a JSON number holds exactly (it
 * could be stored, but no total or answer derived from it could be shown without rounding).
 */
export function requestedMoney(context: StepContext, amount: number, currency: string): Money {
  const meant = amountWithoutFloatNoise(amount, currency, 'amount', (warning) =>
    context.warn?.(warning),
  )
  if (!isAmountInMinorUnits(meant, currency)) {
    throw invalidField('amount', `Expected an amount with at most the minor digits of ${currency}`)
  }
  const requested = money(meant, currency)
  if (exactAmount(requested.minorUnits, currency) === undefined) {
    throw invalidField(
      'amount',
      `Expected at most ${maxAmount(currency)} ${currency}: a larger amount cannot be held exactly`,
    )
  }
  return requested
}

/**
 * An amount computed in floating point read as the amount of `currency` it stands for
 * (`20.799999999999997` EUR is 20.80, see `withoutFloatNoise`), reported to `warn` as a
 * `float_amount` integration warning about `field`, as the production service reads the amounts
 * PHP and JavaScript sums send. Any other amount (in the currency's minor units, genuinely
 * finer, or in a currency that is not one) is returned unchanged, for the usual checks to judge.
 */
export function amountWithoutFloatNoise(
  amount: number,
  currency: string,
  field: string,
  warn: (warning: IntegrationWarning) => void,
): number {
  if (!Number.isFinite(amount) || !isKnownCurrency(currency)) return amount
  if (isAmountInMinorUnits(amount, currency)) return amount
  const meant = withoutFloatNoise(amount, currency)
  if (meant === undefined) return amount
  const digits = currencyMinorDigits(currency)
  warn({
    code: 'float_amount',
    field,
    message: `${field} ${amount} has more decimals than ${currency} allows, but is ${meant} computed in floating point: read as ${meant}`,
    instead:
      digits === 0
        ? `${field} as a whole number of ${currency}: ${meant}`
        : `${field} rounded to ${digits} decimal${digits === 1 ? '' : 's'} for ${currency}: ${meant}`,
  })
  return meant
}

/** Minor units as the API's JSON number, or undefined when they have too many digits for one. */
export function exactAmount(minorUnits: bigint, currency: string): number | undefined {
  try {
    return fromMinorUnits(minorUnits, currency)
  } catch (error) {
    if (error instanceof AmountError) return undefined
    throw error
  }
}

/** Minor units back to the API's JSON number; the caller knows they fit (see {@link exactAmount}). */
export function toAmount(minorUnits: bigint, currency: string): number {
  return fromMinorUnits(minorUnits, currency)
}

/** The exact sum of the amounts, in minor units. */
export function sumMinor(items: readonly { amount: number }[], currency: string): bigint {
  let total = 0n
  for (const item of items) total += toMinorUnits(item.amount, currency)
  return total
}
