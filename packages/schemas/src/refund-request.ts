import * as z from 'zod/v4'
import { requestAmountSchema } from './amount'
import { describedField } from './field-descriptions'
import { boundedText, requestTextLimits } from './request-text'

/**
 * `payments.refund` body. The currency is the payment's, so the server checks the
 * amount's precision and maximum against it.
 */
export const createRefundRequestSchema = z.object({
  amount: describedField(
    "The amount to refund: a number in the payment's currency, greater than 0 and at most what the payment has not refunded yet",
    requestAmountSchema,
  ),
  description: describedField(
    `The reason for the refund, for the merchant's records: at most ${requestTextLimits.description} characters`,
    boundedText(requestTextLimits.description),
  ).optional(),
})

export type CreateRefundRequest = z.infer<typeof createRefundRequestSchema>

/** `refunds.create` body: the same refund, with the payment named in the body. */
export const createRefundOfPaymentRequestSchema = createRefundRequestSchema.extend({
  payment: describedField(
    'The id of the successful payment to refund, such as pa_…',
    z.string().min(1),
  ),
})

export type CreateRefundOfPaymentRequest = z.infer<typeof createRefundOfPaymentRequestSchema>
