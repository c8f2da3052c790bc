import * as z from 'zod'
import { amountSchema, nonNegativeAmountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { currencySchema } from './currency'
import { transactionExternalIdsSchema } from './external-ids'
import { metadataSchema } from './metadata'
import { requestLogSchema } from './request-log'
import { transactionStatusSchema } from './statuses'
import { timestampSchema } from './timestamp'

/**
 * A payment: a capture of an authorized instrument (SPEC "Payment"). Fields after `updated_at`
 * are chargekit's additions, optional so production payloads still parse. Amounts are checked
 * against the currency's minor digits.
 */
export const paymentSchema = z
  .looseObject({
    id: z.string(),
    amount: amountSchema,
    currency: currencySchema,
    description: z.string(),
    success: z.boolean(),
    failure_description: z.string().nullable(),
    metadata: metadataSchema,
    params: z.record(z.string(), z.unknown()).nullable(),
    external_ids: transactionExternalIdsSchema,
    request_log: requestLogSchema,
    created_at: timestampSchema,
    updated_at: timestampSchema,
    charge: z.string().optional(),
    instrument: z.string().optional(),
    status: transactionStatusSchema.optional(),
    failure_code: z.string().nullable().optional(),
    refunded_amount: nonNegativeAmountSchema.optional(),
    settled_at: timestampSchema.nullable().optional(),
  })
  .superRefine(amountPrecisionCheck(['amount', 'refunded_amount']))

export type Payment = z.infer<typeof paymentSchema>
