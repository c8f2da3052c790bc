import * as z from 'zod/v4'
import { amountSchema } from './amount'
import { withAmountsInMinorUnits } from './amount-precision'
import { type Channel, channelSchema } from './channel'
import { currencySchema } from './currency'
import { type ChargeMetadata, chargeMetadataSchema } from './metadata'
import { type RequestLog, requestLogSchema } from './request-log'
import { timestampSchema } from './timestamp'

/** Options that shape the instrument created from a charge: capture, 3-D Secure, recurring. */
export const instrumentParamsSchema = z.looseObject({
  captured_on_creation: z.boolean().optional(),
  enable3ds: z.boolean().optional(),
  recurring: z.boolean().optional(),
})

/** Options that shape the instrument created from a charge. */
export interface InstrumentParams {
  /** Whether the payment is created as soon as the instrument is authorized (`true`) or needs a capture (`false`). */
  captured_on_creation?: boolean | undefined
  /** Whether the customer goes through 3-D Secure. */
  enable3ds?: boolean | undefined
  /** Whether several payments may be created from the instrument. */
  recurring?: boolean | undefined
}

const chargeObject = z.looseObject({
  id: z.string(),
  charge_type: z.string(),
  charge_type_label: z.string(),
  amount: amountSchema,
  currency: currencySchema,
  // Responses echo what was stored; the https rule is enforced on the create request.
  events_url: z.string(),
  redirect_url: z.string(),
  metadata: chargeMetadataSchema,
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

/** A charge as the service returns it; `amount` within the currency's digits. */
export const chargeSchema = withAmountsInMinorUnits(chargeObject, ['amount'])

/**
 * The fields of a charge an account's public key reads: what a customer's browser needs to pay
 * it (what it costs, whether it is confirmed, where the customer returns, why it failed). The
 * merchant's own fields (`events_url`, `metadata`, `description`), who created it
 * (`request_log`) and the processor's references (`external_ids`, `external`) are left out:
 * they are read with the private key, on the merchant's server.
 */
export const publicChargeFields = [
  'id',
  'charge_type',
  'charge_type_label',
  'amount',
  'currency',
  'redirect_url',
  'instrument_params',
  'channels',
  'confirmed',
  'failure_code',
  'failure_description',
  'created_at',
  'updated_at',
  'expires_at',
] as const satisfies readonly (keyof Charge)[]

/** A charge as the public key reads it: {@link publicChargeFields} only. */
export const publicChargeSchema = withAmountsInMinorUnits(
  chargeObject.pick(
    Object.fromEntries(publicChargeFields.map((field) => [field, true])) as {
      [Field in (typeof publicChargeFields)[number]]: true
    },
  ),
  ['amount'],
)

/** A charge: what the merchant asks the customer to pay, and how. */
export interface Charge {
  /** The charge's id (`ch_…`). */
  id: string
  /** The payment method chosen by the customer, such as `card_onetime` or `mbway`. */
  charge_type: string
  /** `charge_type` for people, such as "Card one-time payment". */
  charge_type_label: string
  /** The charged amount, in major units (two decimals for EUR). */
  amount: number
  /** The processing currency, an ISO 4217 code. */
  currency: string
  /** The HTTPS address that receives the charge's events. */
  events_url: string
  /** Where the customer returns after a redirect (3-D Secure, PayPal); may be empty. */
  redirect_url: string
  /**
   * Free-form merchant data that identifies the transaction in the merchant's system, exactly as
   * sent: an object, or a string when the charge was created with one (`"42|1001"`).
   */
  metadata: ChargeMetadata
  /** Options of the instrument created from the charge, defaults filled in. */
  instrument_params: InstrumentParams | null
  /** The processing channels the charge may use; the first one is used. */
  channels: Channel[] | null
  /** Whether the charge is confirmed and can take an instrument. */
  confirmed: boolean
  /** The processor's references for the charge, if any. */
  external_ids: Record<string, unknown> | null
  /** Whether the charge was made outside the API. */
  external: boolean
  /** The error code (`XX.YY.ZZZZ`) when the charge step failed. */
  failure_code: string | null
  /** The error's description when the charge step failed. */
  failure_description: string | null
  /** When the charge was created. */
  created_at: string
  /** When the charge last changed. */
  updated_at: string
  /** When the charge expires, if it does. */
  expires_at: string | null
  /** Who created the charge. */
  request_log: RequestLog
  /** The merchant's description of the charge. */
  description?: string | undefined
}

/** A charge as the public key reads it (see {@link publicChargeFields}). */
export type PublicCharge = Pick<Charge, (typeof publicChargeFields)[number]>
