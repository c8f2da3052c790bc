import {
  AmountError,
  fromMinorUnits,
  isAmountInMinorUnits,
  maxAmount,
  toMinorUnits,
} from '@chargekit/schemas'
import { invalidParameters } from '../api-problem'
import type { Money } from '../processors/processor'

/** An API amount with its exact minor units (string-based conversion: no float drift). */
export function money(amount: number, currency: string): Money {
  return { amount, currency, minorUnits: toMinorUnits(amount, currency) }
}

/**
 * A request's `amount` in the currency of the object it applies to (a refund in the payment's
 * currency): 400 naming `amount` when it has more decimals than the currency allows, or more
 * digits than a JSON number holds exactly (it could be stored, but no total or answer derived
 * from it could be shown without rounding).
 */
export function requestedMoney(amount: number, currency: string): Money {
  if (!isAmountInMinorUnits(amount, currency)) {
    throw invalidParameters({
      amount: [`Expected an amount with at most the minor digits of ${currency}`],
    })
  }
  const requested = money(amount, currency)
  if (exactAmount(requested.minorUnits, currency) === undefined) {
    throw invalidParameters({
      amount: [
        `Expected at most ${maxAmount(currency)} ${currency}: a larger amount cannot be held exactly`,
      ],
    })
  }
  return requested
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
