import * as z from 'zod/v4'
import { requestAmountSchema } from './amount'

/** `instruments.reverse` body; without `amount` the full authorization is voided. */
export const createReversalRequestSchema = z.object({
  amount: requestAmountSchema.optional(),
})

export type CreateReversalRequest = z.infer<typeof createReversalRequestSchema>
