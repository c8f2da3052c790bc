import type * as z from 'zod/v4'
import { compareAmounts, maxAmount } from './amount'
import { isAmountInMinorUnits, isKnownCurrency, minorUnitsMessage } from './currency-codes'
import { amountsInMinorUnits } from './money-checks'

const checkedAmountFields = new WeakMap<z.ZodType, readonly string[]>()

/**
 * `schema`, a resource that carries a `currency`, with an issue at each of `fields` whose number
 * has more decimals than that currency allows. Fields that are absent, and objects whose currency
 * is absent or unknown, are left to the field schemas.
 */
export function withAmountsInMinorUnits<Schema extends z.ZodObject>(
  schema: Schema,
  fields: readonly string[],
): Schema {
  const rule = amountsInMinorUnits(fields)
  const refined = schema.superRefine((value, ctx) => {
    for (const [field, message] of rule(value)) {
      ctx.addIssue({ code: 'custom', path: [field], input: value[field], message })
    }
  })
  checkedAmountFields.set(refined, fields)
  return refined
}

/** The fields {@link withAmountsInMinorUnits} checks on `schema`, if it made it. */
export function checkedAmountFieldsOf(schema: z.ZodType): readonly string[] | undefined {
  return checkedAmountFields.get(schema)
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
        error: (issue) => minorUnitsMessage(currencyOf(issue)),
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
