import * as z from 'zod/v4'
import { requestAmountSchema } from './amount'
import { describedField } from './field-descriptions'
import { boundedText, requestTextLimits } from './request-text'

/** `testHelpers.dispute` body; defaults to the whole payment amount. */
export const createDisputeRequestSchema = z.object({
  amount: describedField(
    "The disputed amount: a number in the payment's currency, greater than 0; by default the whole payment",
    requestAmountSchema,
  ).optional(),
  reason: describedField(
    `The customer's reason for the dispute: at most ${requestTextLimits.reason} characters`,
    boundedText(requestTextLimits.reason).min(1),
  ).optional(),
})

export type CreateDisputeRequest = z.infer<typeof createDisputeRequestSchema>

/** `testHelpers.settleDispute` body. */
export const settleDisputeRequestSchema = z.object({
  outcome: describedField(
    'How the dispute ends: won (the merchant keeps the money) or lost',
    z.enum(['won', 'lost']),
  ),
})

export type SettleDisputeRequest = z.infer<typeof settleDisputeRequestSchema>
