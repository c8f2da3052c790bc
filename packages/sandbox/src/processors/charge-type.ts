import type { CardParams } from '@chargekit/schemas'
import type * as z from 'zod'
import type { FailedOutcome } from './outcome'

/** What a charge type may compute from the customer's details when the instrument is created. */
export interface InstrumentDetailsContext {
  /**
   * A stable, non-reversible fingerprint of a value (a card or phone number), keyed per account:
   * it identifies the same card or phone within the account without storing it.
   */
  fingerprint(value: string): string
  /** The charge's `instrument_params.enable3ds`. */
  readonly enable3ds: boolean
  readonly now: Date
}

/**
 * A payment method: what the customer gives at the instrument step, and how the method behaves
 * apart from its processor. A processor serves charge types; several processors may serve the
 * same one (the same object, or its id once another processor has defined it).
 */
export interface ChargeType<Details extends Record<string, unknown> = Record<string, unknown>> {
  /** `card_onetime`, `mbway`: lower-case letters, digits and underscores, starting with a letter. */
  readonly id: string
  /** `charge_type_label`: "Card one-time payment", "MB WAY". */
  readonly label: string
  /** One instrument pays several times (a card kept on file, a subscription). */
  readonly recurring: boolean
  /**
   * The `instruments.create` fields besides `charge`. The sandbox validates every instrument
   * request of this type with it (a 400 naming each bad field), reads numeric strings and form
   * bodies by it, and serves it as JSON Schema in `charges.types` so a payment form can
   * be drawn from it. An empty object schema: the customer gives nothing at this step.
   */
  readonly instrumentRequest: z.ZodObject
  /** Valid instrument fields for a test (a test card, a phone number): docs, dashboards, kits. */
  readonly example: Details
  /**
   * The instrument's `params`, shown to the merchant: never a secret (no full card number, no
   * CVC). Absent: the instrument has empty params.
   */
  params?(details: Details, context: InstrumentDetailsContext): CardParams | Record<string, unknown>
  /**
   * A decline the sandbox applies itself before any processor is asked (an expired card is
   * refused whatever the processor).
   */
  screen?(details: Details, context: InstrumentDetailsContext): FailedOutcome | undefined
  /**
   * Whether a successful payment can be refunded through the API (default true). A Multibanco
   * payment cannot: the merchant returns the money by bank transfer, and `refunds.create`
   * answers 409.
   */
  readonly refundable?: boolean
  /**
   * The ISO 4217 currencies the method takes (MB WAY, Multibanco and Payshop: `['EUR']`); a
   * charge in another answers 400 naming `currency`. Absent: any currency.
   */
  readonly currencies?: readonly string[]
}

/**
 * Declares a charge type, inferring `Details` from the schema so `example`, `params` and
 * `screen` are typed by it.
 */
export function defineChargeType<Schema extends z.ZodObject>(
  chargeType: ChargeType<z.output<Schema>> & { readonly instrumentRequest: Schema },
): ChargeType {
  return chargeType as unknown as ChargeType
}
