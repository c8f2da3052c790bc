import * as z from 'zod'
import { amountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { channelSchema } from './channel'
import { currencySchema } from './currency'
import { metadataSchema } from './metadata'
import { requestLogSchema } from './request-log'
import { timestampSchema } from './timestamp'

/** Options that shape the instrument created from a charge: capture, 3-D Secure, recurring. */
export const instrumentParamsSchema = z.looseObject({
  captured_on_creation: z.boolean().optional(),
  enable3ds: z.boolean().optional(),
  recurring: z.boolean().optional(),
})

export type InstrumentParams = z.infer<typeof instrumentParamsSchema>

/** A charge as the service returns it; `amount` within the currency's digits. */
export const chargeSchema = z
  .looseObject({
    id: z.string(),
    charge_type: z.string(),
    charge_type_label: z.string(),
    amount: amountSchema,
    currency: currencySchema,
    // Responses echo what was stored; the https rule is enforced on the create request.
    events_url: z.string(),
    redirect_url: z.string(),
    metadata: metadataSchema,
    instrument_params: instrumentParamsSchema.nullable(),
    channels: z.array(channelSchema).nullable(),
    confirmed: z.boolean(),
    external_ids: z.record(z.string(), z.unknown()).nullable(),
    external: z.boolean(),
    failure_code: z.string().nullable(),
    failure_description: z.string().nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
    expires_at: timestampSchema.nullable(),
    request_log: requestLogSchema,
    // Not in every answer of the production service, so optional when reading one.
    description: z.string().optional(),
  })
  .superRefine(amountPrecisionCheck(['amount']))

export type Charge = z.infer<typeof chargeSchema>
