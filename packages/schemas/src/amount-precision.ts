import type * as z from 'zod'
import { isAmountInMinorUnits } from './amount'
import { currencyMinorDigits, isKnownCurrency } from './currency'

/**
 * Adds an issue at `amount` when it has more decimals than `currency` allows. Runs on request
 * bodies only: it needs both fields, and responses are trusted to be already in minor units.
 */
export function checkAmountPrecision(
  value: { amount: number; currency: string },
  ctx: z.RefinementCtx,
): void {
  const { amount, currency } = value
  if (!isKnownCurrency(currency) || isAmountInMinorUnits(amount, currency)) return
  const digits = currencyMinorDigits(currency)
  ctx.addIssue({
    code: 'custom',
    path: ['amount'],
    input: amount,
    message:
      digits === 0
        ? `Expected a whole number: ${currency} has no minor unit`
        : `Expected at most ${digits} decimal${digits === 1 ? '' : 's'} for ${currency}`,
  })
}

/**
 * Run {@link checkAmountPrecision} even when other fields failed (zod skips refinements after
 * field issues by default), as long as `amount` and `currency` themselves are usable, so one
 * 400 reports every problem.
 */
export const amountPrecisionParams: z.core.$ZodSuperRefineParams = {
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
