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
 * A reversal (void) of an authorized, uncaptured instrument. The service documents no fields;
 * this shape is chargekit's, modelled on Payment, with the status words of its events
 * (`pending`, `success`, `error`). `external_ids` is null when the processor never answered.
 */
export const reversalSchema = withAmountsInMinorUnits(
  z.looseObject({
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
  }),
  ['amount'],
)

/** A reversal (void) of an authorized, uncaptured instrument. */
export interface Reversal {
  /** The reversal's id (`rv_…`). */
  id: string
  /** The charge's id. */
  charge: string
  /** The reversed instrument's id. */
  instrument: string
  /** The released amount: the whole authorization. */
  amount: number
  /** The currency, an ISO 4217 code. */
  currency: string
  /** Whether the reversal went through. */
  success: boolean
  /** `pending`, `success` or `error`, the words of the reversal's events. */
  status: OpenEnum<TransactionStatus>
  /** The error code (`XX.YY.ZZZZ`) when it failed. */
  failure_code: string | null
  /** Why it failed, when it did. */
  failure_description: string | null
  /** The processor's references; null when the processor never answered. */
  external_ids: TransactionExternalIds | null
  /** Who asked for the reversal. */
  request_log: RequestLog
  /** When the reversal was created. */
  created_at: string
}
