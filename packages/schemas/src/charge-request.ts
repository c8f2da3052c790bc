import * as z from 'zod'
import { amountSchema } from './amount'
import { amountPrecisionParams, checkAmountPrecision } from './amount-precision'
import { currencySchema } from './currency'
import { createEventsUrlSchema, type EventsUrlOptions } from './events-url'
import { requestMetadataSchema } from './metadata'

/** A URL to send the customer back to, or "" for none (the SPEC allows an empty string). */
export const redirectUrlSchema = z.union([z.literal(''), z.url({ protocol: /^https?$/ })], {
  error: 'Expected an http(s) URL or an empty string',
})

/**
 * Builds the POST /v2/charges body schema. The sandbox passes `allowLoopbackHttp: true` so a
 * merchant server on the same machine can receive events over plain http.
 */
export function createChargeRequestSchemaFor(options: EventsUrlOptions) {
  return z
    .object({
      charge_type: z.string().min(1, { error: 'Expected a charge type such as "card_onetime"' }),
      amount: amountSchema,
      currency: currencySchema,
      events_url: createEventsUrlSchema(options),
      channels: z
        .array(
          z
            .string()
            .min(1, { error: 'Expected a channel label such as "card_onetime_no_processor"' }),
        )
        .optional(),
      metadata: requestMetadataSchema.optional(),
      redirect_url: redirectUrlSchema.optional(),
      instrument_params: z
        .object({
          captured_on_creation: z.boolean().optional(),
          enable3ds: z.boolean().optional(),
          recurring: z.boolean().optional(),
        })
        .optional(),
    })
    .superRefine(checkAmountPrecision, amountPrecisionParams)
}

/** POST /v2/charges body, `events_url` https only (DESIGN §4). */
export const createChargeRequestSchema = createChargeRequestSchemaFor({ allowLoopbackHttp: false })

export type CreateChargeRequest = z.infer<typeof createChargeRequestSchema>
