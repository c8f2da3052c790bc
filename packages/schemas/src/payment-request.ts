import * as z from 'zod/v4'
import { amountSchema } from './amount'
import { withRequestAmountChecks } from './amount-precision'
import { currencySchema } from './currency'
import { requestMetadataSchema } from './metadata'
import { boundedText, requestTextLimits } from './request-text'

/** `payments.create` body: capture `amount` of an authorized instrument. */
export const createPaymentRequestSchema = withRequestAmountChecks(
  z.object({
    instrument: z.string().min(1, { error: 'Expected the id of an instrument, such as "in_…"' }),
    amount: amountSchema,
    currency: currencySchema,
    description: boundedText(requestTextLimits.description).optional(),
    metadata: requestMetadataSchema.optional(),
  }),
)

export type CreatePaymentRequest = z.infer<typeof createPaymentRequestSchema>
