import type * as z from 'zod'
import { compareAmounts, isAmountInMinorUnits, maxAmount } from './amount'
import { currencyMinorDigits, isKnownCurrency } from './currency'

function addPrecisionIssue(
  ctx: z.RefinementCtx,
  field: string,
  amount: number,
  currency: string,
): void {
  const digits = currencyMinorDigits(currency)
  ctx.addIssue({
    code: 'custom',
    path: [field],
    input: amount,
    message:
      digits === 0
        ? `Expected a whole number: ${currency} has no minor unit`
        : `Expected at most ${digits} decimal${digits === 1 ? '' : 's'} for ${currency}`,
  })
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
        addPrecisionIssue(ctx, field, amount, currency)
      }
    }
  }
}

/**
 * Checks a request body's `amount` against its `currency`: no more decimals than the currency
 * allows, and at most {@link maxAmount}, so its minor units stay exact wherever it is stored,
 * summed or sent back as a JSON number.
 */
export function checkRequestAmount(
  value: { amount: number; currency: string },
  ctx: z.RefinementCtx,
): void {
  const { amount, currency } = value
  if (!isKnownCurrency(currency)) return
  if (!isAmountInMinorUnits(amount, currency)) addPrecisionIssue(ctx, 'amount', amount, currency)
  const max = maxAmount(currency)
  if (compareAmounts(amount, max) > 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['amount'],
      input: amount,
      message: `Expected at most ${max} ${currency}: a larger amount cannot be held exactly`,
    })
  }
}

/**
 * Run {@link checkRequestAmount} even when other fields failed (zod skips refinements after
 * field issues by default), as long as `amount` and `currency` themselves are usable, so one
 * 400 reports every problem.
 */
export const requestAmountParams: z.core.$ZodSuperRefineParams = {
  when(payload) {
    const value = payload.value as { amount?: unknown; currency?: unknown } | null
    return (
      typeof value === 'object' &&
      value !== null &&
      typeof value.amount === 'number' &&
      Number.isFinite(value.amount) &&
      typeof value.currency === 'string'
    )
  },
}
