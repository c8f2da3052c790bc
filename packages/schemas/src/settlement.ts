import * as z from 'zod'
import { nonNegativeAmountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { currencySchema } from './currency'
import { timestampSchema } from './timestamp'

/**
 * Per-currency sums of one settlement, each within the currency's minor digits; `net_amount` is
 * negative when refunds exceed payments.
 */
export const settlementTotalSchema = z
  .looseObject({
    currency: currencySchema,
    payments_amount: nonNegativeAmountSchema,
    refunds_amount: nonNegativeAmountSchema,
    net_amount: z.number(),
  })
  .superRefine(amountPrecisionCheck(['payments_amount', 'refunds_amount', 'net_amount']))

export type SettlementTotal = z.infer<typeof settlementTotalSchema>

/** A settlement batch (the service documents no fields; this shape is chargekit's). */
export const settlementSchema = z.looseObject({
  id: z.string(),
  created_at: timestampSchema,
  payments: z.array(z.string()),
  refunds: z.array(z.string()),
  instruments: z.array(z.string()),
  totals: z.array(settlementTotalSchema),
})

export type Settlement = z.infer<typeof settlementSchema>
