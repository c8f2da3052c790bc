import * as z from 'zod/v4'
import { nonNegativeAmountSchema } from './amount'
import { withAmountsInMinorUnits } from './amount-precision'
import { currencySchema } from './currency'
import { timestampSchema } from './timestamp'

/**
 * Per-currency sums of one settlement, each within the currency's minor digits; `net_amount` is
 * negative when refunds exceed payments.
 */
export const settlementTotalSchema = withAmountsInMinorUnits(
  z.looseObject({
    currency: currencySchema,
    payments_amount: nonNegativeAmountSchema,
    refunds_amount: nonNegativeAmountSchema,
    net_amount: z.number(),
  }),
  ['payments_amount', 'refunds_amount', 'net_amount'],
)

/** Per-currency sums of one settlement. */
export interface SettlementTotal {
  /** The currency, an ISO 4217 code. */
  currency: string
  /** The sum of the settled payments. */
  payments_amount: number
  /** The sum of the settled refunds. */
  refunds_amount: number
  /** Payments less refunds; negative when refunds exceed payments. */
  net_amount: number
}

/** A settlement batch (the service documents no fields; this shape is chargekit's). */
export const settlementSchema = z.looseObject({
  id: z.string(),
  created_at: timestampSchema,
  payments: z.array(z.string()),
  refunds: z.array(z.string()),
  instruments: z.array(z.string()),
  totals: z.array(settlementTotalSchema),
})

/** A settlement batch: the payments and refunds the processor paid out together. */
export interface Settlement {
  /** The settlement's id (`st_…`). */
  id: string
  /** When the batch was settled. */
  created_at: string
  /** The settled payments' ids. */
  payments: string[]
  /** The settled refunds' ids. */
  refunds: string[]
  /** The instruments whose payments were settled. */
  instruments: string[]
  /** Sums per currency. */
  totals: SettlementTotal[]
}
