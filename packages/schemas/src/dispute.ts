import * as z from 'zod/v4'
import { amountSchema } from './amount'
import { withAmountsInMinorUnits } from './amount-precision'
import { currencySchema } from './currency'
import { type DisputeStatus, disputeStatusSchema, type OpenEnum, openEnum } from './statuses'
import { timestampSchema } from './timestamp'

/** A customer's dispute of a payment (the service documents no fields; this shape is chargekit's). */
export const disputeSchema = withAmountsInMinorUnits(
  z.looseObject({
    id: z.string(),
    charge: z.string(),
    payment: z.string(),
    amount: amountSchema,
    currency: currencySchema,
    reason: z.string(),
    status: openEnum(disputeStatusSchema),
    created_at: timestampSchema,
    updated_at: timestampSchema,
    settled_at: timestampSchema.nullable(),
  }),
  ['amount'],
)

/** A customer's dispute (chargeback) of a payment. */
export interface Dispute {
  /** The dispute's id (`dp_…`). */
  id: string
  /** The charge's id. */
  charge: string
  /** The disputed payment's id. */
  payment: string
  /** The disputed amount. */
  amount: number
  /** The currency, an ISO 4217 code. */
  currency: string
  /** The customer's reason. */
  reason: string
  /** `open`, then `won` or `lost`. */
  status: OpenEnum<DisputeStatus>
  /** When the dispute was opened. */
  created_at: string
  /** When it last changed. */
  updated_at: string
  /** When it was decided; null while open. */
  settled_at: string | null
}
