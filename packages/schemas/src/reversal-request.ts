import * as z from 'zod'
import { amountSchema } from './amount'

/** POST /v2/instruments/{id}/reversal body; without `amount` the full authorization is voided. */
export const createReversalRequestSchema = z.object({
  amount: amountSchema.optional(),
})

export type CreateReversalRequest = z.infer<typeof createReversalRequestSchema>
