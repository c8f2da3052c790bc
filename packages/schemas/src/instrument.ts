import * as z from 'zod'
import { amountSchema, nonNegativeAmountSchema } from './amount'
import { amountPrecisionCheck } from './amount-precision'
import { cardParamsSchema } from './card-params'
import { channelSchema } from './channel'
import { currencySchema } from './currency'
import { instrumentExternalIdsSchema } from './external-ids'
import { chargeReferenceSchema, lastPaymentSchema } from './references'
import { requestLogSchema } from './request-log'
import { instrumentStatusSchema, openEnum } from './statuses'
import { timestampSchema } from './timestamp'

/** HTTP methods the service uses to send the customer to `redirect.url`. */
export const redirectMethodSchema = z.enum(['GET'])

/**
 * What the customer must do to finish a pending authorization, or null when nothing is pending.
 * A page to visit (3-D Secure, PayPal's approval) has a `url` and a `method`: the sandbox always
 * answers `GET`; another method (a form POST to the issuer) is kept. A payment the customer
 * finishes elsewhere has `url: null` and `parameters` to show them: a reference to pay at an ATM
 * or in a shop (`entity`, `reference`, `amount`, `expires_at`), or the phone number an app
 * notification went to (MB WAY).
 */
export const redirectSchema = z.looseObject({
  url: z.string().nullable(),
  method: openEnum(redirectMethodSchema).nullable(),
  parameters: z.record(z.string(), z.unknown()).optional(),
})

export type Redirect = z.infer<typeof redirectSchema>

/**
 * An instrument: the customer's payment authorization. The fields after `updated_at` are
 * optional: `charge`, `last_payment` and `used` as the production service sends them, the rest
 * chargekit's additions; payloads without them still parse. `last_payment` is null until a
 * payment is created from the instrument, and `used` turns true with that first payment
 * (whatever its outcome). When `currency` is present, `amount` and `captured_amount` are checked
 * against its minor digits.
 */
export const instrumentSchema = z
  .looseObject({
    id: z.string(),
    status: openEnum(instrumentStatusSchema),
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
    charge: chargeReferenceSchema.optional(),
    last_payment: lastPaymentSchema.nullable().optional(),
    used: z.boolean().optional(),
    amount: amountSchema.optional(),
    currency: currencySchema.optional(),
    captured_amount: nonNegativeAmountSchema.optional(),
    recurring: z.boolean().optional(),
    captured_on_creation: z.boolean().optional(),
    failure_code: z.string().nullable().optional(),
  })
  .superRefine(amountPrecisionCheck(['amount', 'captured_amount']))

export type Instrument = z.infer<typeof instrumentSchema>
