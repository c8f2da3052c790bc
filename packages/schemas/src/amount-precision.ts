import type * as z from 'zod/v4'
import { compareAmounts, isAmountInMinorUnits, maxAmount } from './amount'
import { currencyMinorDigits, isKnownCurrency } from './currency'

function precisionMessage(currency: string): string {
  const digits = currencyMinorDigits(currency)
  return digits === 0
    ? `Expected a whole number: ${currency} has no minor unit`
    : `Expected at most ${digits} decimal${digits === 1 ? '' : 's'} for ${currency}`
}

/**
 * A refinement for a resource that carries a `currency`: adds an issue at each of `fields` whose
 * number has more decimals than that currency allows. Fields that are absent, and objects whose
 * currency is absent or unknown, are left to the field schemas.
 */
export function amountPrecisionCheck(fields: readonly string[]) {
  return (value: { readonly [key: string]: unknown }, ctx: z.RefinementCtx): void => {
    const currency = value.currency
    if (typeof currency !== 'string' || !isKnownCurrency(currency)) return
    for (const field of fields) {
      const amount = value[field]
      if (typeof amount === 'number' && !isAmountInMinorUnits(amount, currency)) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          input: amount,
          message: precisionMessage(currency),
        })
      }
    }
  }
}

interface RequestAmount {
  amount: number
  currency: string
}

// Run even when other fields failed (zod skips refinements after field issues by default), as
// long as `amount` and `currency` themselves are usable, so one 400 reports every problem.
function amountAndCurrencyUsable(payload: { value: unknown }): boolean {
  const value = payload.value as { amount?: unknown; currency?: unknown } | null
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof value.amount === 'number' &&
    Number.isFinite(value.amount) &&
    typeof value.currency === 'string'
  )
}

function currencyOf(issue: { input?: unknown }): string {
  return (issue.input as RequestAmount).currency
}

/**
 * Adds a request body's `amount` checks against its `currency`: no more decimals than the
 * currency allows, and at most {@link maxAmount}, so its minor units stay exact wherever it is
 * stored, summed or sent back as a JSON number. An unknown currency is left to `currency`'s own
 * schema.
 */
export function withRequestAmountChecks<Schema extends z.ZodType<RequestAmount>>(
  schema: Schema,
): Schema {
  // Two `.refine`s with `when` rather than one `.superRefine`: zod 3.25's `zod/v4` takes no
  // options on `.superRefine`, and without `when` these checks would wait for every other field.
  return schema
    .refine(
      ({ amount, currency }) =>
        !isKnownCurrency(currency) || isAmountInMinorUnits(amount, currency),
      {
        path: ['amount'],
        when: amountAndCurrencyUsable,
        error: (issue) => precisionMessage(currencyOf(issue)),
      },
    )
    .refine(
      ({ amount, currency }) =>
        !isKnownCurrency(currency) || compareAmounts(amount, maxAmount(currency)) <= 0,
      {
        path: ['amount'],
        when: amountAndCurrencyUsable,
        error: (issue) => {
          const currency = currencyOf(issue)
          return `Expected at most ${maxAmount(currency)} ${currency}: a larger amount cannot be held exactly`
        },
      },
    )
}
