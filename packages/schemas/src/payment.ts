import * as z from 'zod/v4'
import { amountSchema, nonNegativeAmountSchema } from './amount'
import { withAmountsInMinorUnits } from './amount-precision'
import { currencySchema } from './currency'
import { type TransactionExternalIds, transactionExternalIdsSchema } from './external-ids'
import { type Metadata, metadataSchema } from './metadata'
import {
  type ChargeReference,
  chargeReferenceSchema,
  type InstrumentReference,
  instrumentReferenceSchema,
  type PaymentRefund,
  paymentRefundSchema,
} from './references'
import { type RequestLog, requestLogSchema } from './request-log'
import {
  type OpenEnum,
  openEnum,
  type TransactionStatus,
  transactionStatusSchema,
} from './statuses'
import { timestampSchema } from './timestamp'

/**
 * A payment: a capture of an authorized instrument. Fields after `updated_at` are optional:
 * `charge`, `instrument` and `refunds` (every refund of the payment, oldest first, failed ones
 * included) as the production service sends them, the rest chargekit's additions; payloads
 * without them still parse. `status` is `pending`, `success` or `error`, the words of the
 * payment's events. Amounts are checked against the currency's minor digits.
 */
export const paymentSchema = withAmountsInMinorUnits(
  z.looseObject({
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
  }),
  ['amount', 'refunded_amount'],
)

/** A payment: a capture of an authorized instrument. */
export interface Payment {
  /** The payment's id (`pa_…`), used to create refunds. */
  id: string
  /** The captured amount, in major units. */
  amount: number
  /** The currency, an ISO 4217 code. */
  currency: string
  /** The merchant's description of the payment. */
  description: string
  /** Whether the payment went through. */
  success: boolean
  /** Why the payment failed, when it did. */
  failure_description: string | null
  /** Free-form merchant data. */
  metadata: Metadata
  /** The processor's extra details, if any. */
  params: Record<string, unknown> | null
  /** The processor's references. */
  external_ids: TransactionExternalIds
  /** Who created the payment. */
  request_log: RequestLog
  /** When the payment was created. */
  created_at: string
  /** When the payment last changed. */
  updated_at: string
  /** The charge it pays. */
  charge?: ChargeReference | undefined
  /** The instrument it captures. */
  instrument?: InstrumentReference | undefined
  /** Every refund of the payment, oldest first, failed ones included. */
  refunds?: PaymentRefund[] | undefined
  /** `pending`, `success` or `error`, the words of the payment's events. */
  status?: OpenEnum<TransactionStatus> | undefined
  /** The error code (`XX.YY.ZZZZ`) when it failed. */
  failure_code?: string | null | undefined
  /** How much was refunded successfully. */
  refunded_amount?: number | undefined
  /** When the payment was settled; null before. */
  settled_at?: string | null | undefined
}
