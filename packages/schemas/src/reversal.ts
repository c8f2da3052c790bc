import * as z from 'zod'
import { amountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { currencySchema } from './currency'
import { transactionExternalIdsSchema } from './external-ids'
import { requestLogSchema } from './request-log'
import { openEnum, transactionStatusSchema } from './statuses'
import { timestampSchema } from './timestamp'

/**
 * A reversal (void) of an authorized, uncaptured instrument. The service documents no fields;
 * this shape is chargekit's, modelled on Payment, with the status words of its events
 * (`pending`, `success`, `error`). `external_ids` is null when the processor never answered.
 */
export const reversalSchema = z
  .looseObject({
    id: z.string(),
    charge: z.string(),
    instrument: z.string(),
    amount: amountSchema,
    currency: currencySchema,
    success: z.boolean(),
    status: openEnum(transactionStatusSchema),
    failure_code: z.string().nullable(),
    failure_description: z.string().nullable(),
    external_ids: transactionExternalIdsSchema.nullable(),
    request_log: requestLogSchema,
    created_at: timestampSchema,
  })
  .superRefine(amountPrecisionCheck(['amount']))

export type Reversal = z.infer<typeof reversalSchema>
