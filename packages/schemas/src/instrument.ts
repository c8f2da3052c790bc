import * as z from 'zod/v4'
import { amountSchema, nonNegativeAmountSchema } from './amount'
import { withAmountsInMinorUnits } from './amount-precision'
import { type CardParams, cardParamsSchema } from './card-params'
import { type Channel, channelSchema } from './channel'
import { currencySchema } from './currency'
import { type InstrumentExternalIds, instrumentExternalIdsSchema } from './external-ids'
import {
  type ChargeReference,
  chargeReferenceSchema,
  type LastPayment,
  lastPaymentSchema,
} from './references'
import { type RequestLog, requestLogSchema } from './request-log'
import { type InstrumentStatus, instrumentStatusSchema, type OpenEnum, openEnum } from './statuses'
import { timestampSchema } from './timestamp'

/** HTTP methods the service uses to send the customer to `redirect.url`. */
export const redirectMethodSchema = z.enum(['GET'])
export type RedirectMethod = z.infer<typeof redirectMethodSchema>

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

/** What the customer must do to finish a pending authorization. */
export interface Redirect {
  /** The page to send the customer to; null when they finish elsewhere (an app, a reference). */
  url: string | null
  /** The HTTP method for `url` (`GET`); null without a page. */
  method: OpenEnum<RedirectMethod> | null
  /** What to show the customer: a payment reference, the phone an app request went to, `expires_at`. */
  parameters?: Record<string, unknown> | undefined
}

/**
 * An instrument: the customer's payment authorization. The fields after `updated_at` are
 * optional: `charge`, `last_payment` and `used` as the production service sends them, the rest
 * chargekit's additions; payloads without them still parse. `last_payment` is null until a
 * payment is created from the instrument, and `used` turns true with that first payment
 * (whatever its outcome). When `currency` is present, `amount` and `captured_amount` are checked
 * against its minor digits.
 */
export const instrumentSchema = withAmountsInMinorUnits(
  z.looseObject({
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
  }),
  ['amount', 'captured_amount'],
)

/** An instrument: the customer's authorization of a charge (a card, an MB WAY approval…). */
export interface Instrument {
  /** The instrument's id (`in_…`); a token for recurring payments. */
  id: string
  /** `authorized` (payments may be created), `pending` (awaiting the customer or the processor) or `invalid`. */
  status: OpenEnum<InstrumentStatus>
  /** Whether the authorization went through. */
  success: boolean
  /** The channel that processed it. */
  channel: Channel
  /** The customer, when the service knows them. */
  customer: Record<string, unknown> | null
  /** The processor's references. */
  external_ids: InstrumentExternalIds
  /** Why the instrument failed, when it did. */
  failure_description: string | null
  /** What the customer must do while the instrument is pending; null otherwise. */
  redirect: Redirect | null
  /** Who created the instrument (the customer's browser, for a browser checkout). */
  request_log: RequestLog
  /** The payment method's details: card details, or a masked phone number. */
  params: CardParams
  /** When the instrument was created. */
  created_at: string
  /** When the instrument last changed. */
  updated_at: string
  /** The charge it authorizes. */
  charge?: ChargeReference | undefined
  /** The latest payment created from it; null before the first. */
  last_payment?: LastPayment | null | undefined
  /** Whether a payment was ever created from it. */
  used?: boolean | undefined
  /** The authorized amount (the charge's). */
  amount?: number | undefined
  /** The authorized amount's currency. */
  currency?: string | undefined
  /** How much of the authorization was captured. */
  captured_amount?: number | undefined
  /** Whether several payments may be created from it. */
  recurring?: boolean | undefined
  /** Whether its payment was created as soon as it was authorized. */
  captured_on_creation?: boolean | undefined
  /** The error code (`XX.YY.ZZZZ`) when it failed. */
  failure_code?: string | null | undefined
}
