import * as z from 'zod'
import { amountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { currencySchema } from './currency'
import { transactionExternalIdsSchema } from './external-ids'
import { requestLogSchema } from './request-log'
import { transactionStatusSchema } from './statuses'
import { timestampSchema } from './timestamp'

/**
 * A reversal (void) of an authorized, uncaptured instrument. The SPEC shows no fields; this
 * shape is chargekit's, modelled on Payment. `external_ids` is null when the processor
 * never answered.
 */
export const reversalSchema = z
  .looseObject({
    id: z.string(),
    charge: z.string(),
    instrument: z.string(),
    amount: amountSchema,
    currency: currencySchema,
    success: z.boolean(),
    status: transactionStatusSchema,
    failure_code: z.string().nullable(),
    failure_description: z.string().nullable(),
    external_ids: transactionExternalIdsSchema.nullable(),
    request_log: requestLogSchema,
    created_at: timestampSchema,
  })
  .superRefine(amountPrecisionCheck(['amount']))

export type Reversal = z.infer<typeof reversalSchema>
