// The money rules of the response checks: a currency this runtime knows, and amounts within
// its minor units. The zod schemas refine with the same rule, so the two cannot drift apart.
import {
  isAmountInMinorUnits,
  isKnownCurrency,
  minorUnitsMessage,
  unknownCurrencyMessage,
} from './currency-codes'
import { type ObjectRule, refinedString } from './shape-check'

/** An upper-case ISO 4217 code that this runtime's Intl knows. */
export const currency = refinedString(isKnownCurrency, unknownCurrencyMessage)

const none: ReturnType<ObjectRule> = []

/**
 * An object rule: each of `fields` that holds a number has no more decimals than the object's
 * `currency` allows. An absent or unknown currency is left to the currency field's own check.
 */
export function amountsInMinorUnits(fields: readonly string[]): ObjectRule {
  return (value) => {
    const code = value.currency
    if (typeof code !== 'string' || !isKnownCurrency(code)) return none
    let problems: [string, string][] | undefined
    for (const field of fields) {
      const amount = value[field]
      if (typeof amount === 'number' && !isAmountInMinorUnits(amount, code)) {
        problems ??= []
        problems.push([field, minorUnitsMessage(code)])
      }
    }
    return problems ?? none
  }
}
