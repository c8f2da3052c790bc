import * as z from 'zod'
import { amountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { currencySchema } from './currency'
import { transactionExternalIdsSchema } from './external-ids'
import { requestLogSchema } from './request-log'
import { openEnum, transactionStatusSchema } from './statuses'
import { timestampSchema } from './timestamp'

/**
 * A refund of a payment. Fields after `created_at` are chargekit's additions, optional so
 * production payloads still parse; `status` is `pending`, `success` or `error`, the words of the
 * refund's events. When `currency` is present, `amount` is checked against its minor digits.
 */
export const refundSchema = z
  .looseObject({
    id: z.string(),
    amount: amountSchema,
    description: z.string(),
    success: z.boolean(),
    failure_description: z.string().nullable(),
    external_ids: transactionExternalIdsSchema,
    request_log: requestLogSchema,
    created_at: timestampSchema,
    payment: z.string().optional(),
    charge: z.string().optional(),
    currency: currencySchema.optional(),
    status: openEnum(transactionStatusSchema).optional(),
    failure_code: z.string().nullable().optional(),
    settled_at: timestampSchema.nullable().optional(),
  })
  .superRefine(amountPrecisionCheck(['amount']))

export type Refund = z.infer<typeof refundSchema>
