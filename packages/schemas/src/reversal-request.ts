import * as z from 'zod/v4'
import { requestAmountSchema } from './amount'
import { describedField } from './field-descriptions'

/** `instruments.reverse` body; without `amount` the full authorization is voided. */
export const createReversalRequestSchema = z.object({
  amount: describedField(
    "The amount to void: a number in the charge's currency, the whole authorization (only all of it can be voided), which is also the default",
    requestAmountSchema,
  ).optional(),
})

export type CreateReversalRequest = z.infer<typeof createReversalRequestSchema>
