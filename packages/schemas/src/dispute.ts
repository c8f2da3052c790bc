import * as z from 'zod'
import { amountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { currencySchema } from './currency'
import { disputeStatusSchema, openEnum } from './statuses'
import { timestampSchema } from './timestamp'

/** A customer's dispute of a payment (the service documents no fields; this shape is chargekit's). */
export const disputeSchema = z
  .looseObject({
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
  })
  .superRefine(amountPrecisionCheck(['amount']))

export type Dispute = z.infer<typeof disputeSchema>
