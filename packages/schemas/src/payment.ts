import * as z from 'zod'
import { amountSchema, nonNegativeAmountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { currencySchema } from './currency'
import { transactionExternalIdsSchema } from './external-ids'
import { metadataSchema } from './metadata'
import { chargeReferenceSchema, instrumentReferenceSchema, paymentRefundSchema } from './references'
import { requestLogSchema } from './request-log'
import { openEnum, transactionStatusSchema } from './statuses'
import { timestampSchema } from './timestamp'

/**
 * A payment: a capture of an authorized instrument. Fields after `updated_at` are optional:
 * `charge`, `instrument` and `refunds` (every refund of the payment, oldest first, failed ones
 * included) as the production service sends them, the rest chargekit's additions; payloads
 * without them still parse. `status` is `pending`, `success` or `error`, the words of the
 * payment's events. Amounts are checked against the currency's minor digits.
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
    charge: chargeReferenceSchema.optional(),
    instrument: instrumentReferenceSchema.optional(),
    refunds: z.array(paymentRefundSchema).optional(),
    status: openEnum(transactionStatusSchema).optional(),
    failure_code: z.string().nullable().optional(),
    refunded_amount: nonNegativeAmountSchema.optional(),
    settled_at: timestampSchema.nullable().optional(),
  })
  .superRefine(amountPrecisionCheck(['amount', 'refunded_amount']))

export type Payment = z.infer<typeof paymentSchema>
