import * as z from 'zod'
import { amountSchema } from './amount'

/**
 * POST /v2/payments/{id}/refund body. The currency is the payment's, so the server checks the
 * amount's precision against it.
 */
export const createRefundRequestSchema = z.object({
  amount: amountSchema,
  description: z.string().optional(),
})

export type CreateRefundRequest = z.infer<typeof createRefundRequestSchema>
