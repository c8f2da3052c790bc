import { fromMinorUnits, isAmountInMinorUnits, toMinorUnits } from '@chargekit/schemas'
import { invalidParameters } from '../api-problem'
import type { Money } from '../processors/processor'

/** An API amount with its exact minor units (string-based conversion: no float drift). */
export function money(amount: number, currency: string): Money {
  return { amount, currency, minorUnits: toMinorUnits(amount, currency) }
}

/**
 * A request's `amount` in the currency of the object it applies to (a refund in the payment's
 * currency): 400 when it has more decimals than that currency allows.
 */
export function requestedMoney(amount: number, currency: string): Money {
  if (!isAmountInMinorUnits(amount, currency)) {
    throw invalidParameters({
      amount: [`Expected an amount with at most the minor digits of ${currency}`],
    })
  }
  return money(amount, currency)
}

/** Minor units back to the API's JSON number. */
export function toAmount(minorUnits: bigint, currency: string): number {
  return fromMinorUnits(minorUnits, currency)
}

/** The exact sum of the amounts, in minor units. */
export function sumMinor(items: readonly { amount: number }[], currency: string): bigint {
  let total = 0n
  for (const item of items) total += toMinorUnits(item.amount, currency)
  return total
}
