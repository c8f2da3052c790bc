import * as z from 'zod/v4'
import { requestAmountSchema } from './amount'
import { boundedText, requestTextLimits } from './request-text'

/** `testHelpers.dispute` body; defaults to the whole payment amount. */
export const createDisputeRequestSchema = z.object({
  amount: requestAmountSchema.optional(),
  reason: boundedText(requestTextLimits.reason).min(1).optional(),
})

export type CreateDisputeRequest = z.infer<typeof createDisputeRequestSchema>

/** `testHelpers.settleDispute` body. */
export const settleDisputeRequestSchema = z.object({
  outcome: z.enum(['won', 'lost']),
})

export type SettleDisputeRequest = z.infer<typeof settleDisputeRequestSchema>
