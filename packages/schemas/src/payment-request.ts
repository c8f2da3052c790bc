import * as z from 'zod/v4'
import { amountSchema } from './amount'
import { withRequestAmountChecks } from './amount-precision'
import { currencySchema } from './currency'
import { describedField } from './field-descriptions'
import { requestMetadataSchema } from './metadata'
import { boundedText, requestTextLimits } from './request-text'

/** `payments.create` body: capture `amount` of an authorized instrument. */
export const createPaymentRequestSchema = withRequestAmountChecks(
  z.object({
    instrument: describedField(
      'The id of the authorized instrument to capture from, such as in_…',
      z.string().min(1),
    ),
    amount: describedField(
      "The amount to capture: a number in the currency's major units, greater than 0 and at most what the instrument has left",
      amountSchema,
    ),
    currency: describedField(
      "The currency of the amount, the charge's ISO 4217 code such as EUR",
      currencySchema,
    ),
    description: describedField(
      `A description of what the payment is for, for the merchant's records: at most ${requestTextLimits.description} characters`,
      boundedText(requestTextLimits.description),
    ).optional(),
    metadata: describedField(
      "The merchant's own data for the payment: an object of flat values (string, number, boolean or null)",
      requestMetadataSchema,
    ).optional(),
  }),
)

export type CreatePaymentRequest = z.infer<typeof createPaymentRequestSchema>
