import * as z from 'zod'
import { amountSchema, nonNegativeAmountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { cardParamsSchema } from './card-params'
import { channelSchema } from './channel'
import { currencySchema } from './currency'
import { instrumentExternalIdsSchema } from './external-ids'
import { requestLogSchema } from './request-log'
import { instrumentStatusSchema } from './statuses'
import { timestampSchema } from './timestamp'

/** Where to send the customer to finish authorization (3DS), or null when nothing is pending. */
export const redirectSchema = z.looseObject({
  url: z.string(),
  method: z.literal('GET'),
})

export type Redirect = z.infer<typeof redirectSchema>

/**
 * An instrument: the customer's payment authorization (SPEC "Instrument"). The fields after
 * `updated_at` are chargekit's additions; they are optional so payloads of the production
 * service, which does not send them, still parse. When `currency` is present, `amount` and
 * `captured_amount` are checked against its minor digits.
 */
export const instrumentSchema = z
  .looseObject({
    id: z.string(),
    status: instrumentStatusSchema,
    success: z.boolean(),
    channel: channelSchema,
    customer: z.record(z.string(), z.unknown()).nullable(),
    external_ids: instrumentExternalIdsSchema,
    failure_description: z.string().nullable(),
    redirect: redirectSchema.nullable(),
    request_log: requestLogSchema,
    params: cardParamsSchema,
    created_at: timestampSchema,
    updated_at: timestampSchema,
    charge: z.string().optional(),
    amount: amountSchema.optional(),
    currency: currencySchema.optional(),
    captured_amount: nonNegativeAmountSchema.optional(),
    recurring: z.boolean().optional(),
    captured_on_creation: z.boolean().optional(),
    failure_code: z.string().nullable().optional(),
  })
  .superRefine(amountPrecisionCheck(['amount', 'captured_amount']))

export type Instrument = z.infer<typeof instrumentSchema>
