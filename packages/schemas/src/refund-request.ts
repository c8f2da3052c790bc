import * as z from 'zod/v4'
import { requestAmountSchema } from './amount'
import { boundedText, requestTextLimits } from './request-text'

/**
 * `payments.refund` body. The currency is the payment's, so the server checks the
 * amount's precision and maximum against it.
 */
export const createRefundRequestSchema = z.object({
  amount: requestAmountSchema,
  description: boundedText(requestTextLimits.description).optional(),
})

export type CreateRefundRequest = z.infer<typeof createRefundRequestSchema>

/** `refunds.create` body: the same refund, with the payment named in the body. */
export const createRefundOfPaymentRequestSchema = createRefundRequestSchema.extend({
  payment: z.string().min(1, { error: 'Expected the id of a payment, such as "pa_…"' }),
})

export type CreateRefundOfPaymentRequest = z.infer<typeof createRefundOfPaymentRequestSchema>
