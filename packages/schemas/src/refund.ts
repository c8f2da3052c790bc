import * as z from 'zod/v4'
import { amountSchema } from './amount'
import { withAmountsInMinorUnits } from './amount-precision'
import { currencySchema } from './currency'
import { type TransactionExternalIds, transactionExternalIdsSchema } from './external-ids'
import { type RequestLog, requestLogSchema } from './request-log'
import {
  type OpenEnum,
  openEnum,
  type TransactionStatus,
  transactionStatusSchema,
} from './statuses'
import { timestampSchema } from './timestamp'

/**
 * A refund of a payment. Fields after `created_at` are chargekit's additions, optional so
 * production payloads still parse; `status` is `pending`, `success` or `error`, the words of the
 * refund's events. When `currency` is present, `amount` is checked against its minor digits.
 */
export const refundSchema = withAmountsInMinorUnits(
  z.looseObject({
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
  }),
  ['amount'],
)

/** A refund of a payment, whole or in part. */
export interface Refund {
  /** The refund's id (`re_…`). */
  id: string
  /** The refunded amount, in the payment's currency. */
  amount: number
  /** The merchant's description of the refund. */
  description: string
  /** Whether the refund went through. */
  success: boolean
  /** Why the refund failed, when it did. */
  failure_description: string | null
  /** The processor's references. */
  external_ids: TransactionExternalIds
  /** Who created the refund. */
  request_log: RequestLog
  /** When the refund was created. */
  created_at: string
  /** The refunded payment's id. */
  payment?: string | undefined
  /** The charge's id. */
  charge?: string | undefined
  /** The currency, an ISO 4217 code. */
  currency?: string | undefined
  /** `pending`, `success` or `error`, the words of the refund's events. */
  status?: OpenEnum<TransactionStatus> | undefined
  /** The error code (`XX.YY.ZZZZ`) when it failed. */
  failure_code?: string | null | undefined
  /** When the refund was settled; null before. */
  settled_at?: string | null | undefined
}
