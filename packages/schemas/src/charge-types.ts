import * as z from 'zod/v4'

/**
 * One charge type an account's channels offer, as `charges.types` lists it. `schema` is
 * the JSON Schema of what the customer gives at the instrument step, so a payment form can be
 * drawn from it; it is read as any JSON object, since its vocabulary is JSON Schema's.
 */
export const chargeTypeInfoSchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  recurring: z.boolean(),
  payout: z.boolean(),
  schema: z.record(z.string(), z.unknown()),
  /** Whether its payments can be refunded through the API (chargekit's addition). */
  refundable: z.boolean().optional(),
  /** The currencies it takes; null for any (chargekit's addition). */
  currencies: z.array(z.string()).nullable().optional(),
})

/** One charge type an account's channels offer. */
export interface ChargeTypeInfo {
  /** The charge type, such as `card_onetime` or `mbway`. */
  id: string
  /** For people: "Card one-time payment", "MB WAY". */
  label: string
  /** Whether one instrument pays several times. */
  recurring: boolean
  /**
   * Whether the type pays money out to the customer rather than in. Payment forms offer only
   * the types where it is `false`.
   */
  payout: boolean
  /**
   * The JSON Schema of what the customer gives at the instrument step: the `instruments.create`
   * body without `charge`, which the page adds. `title` names the payment method and each field
   * has a `title` to label its input with.
   */
  schema: Record<string, unknown>
  /** Whether its payments can be refunded through the API (chargekit's addition). */
  refundable?: boolean | undefined
  /** The currencies it takes; null for any (chargekit's addition). */
  currencies?: string[] | null | undefined
}

/** `charges.types`: every charge type of the account, unpaged. */
export const chargeTypeListSchema = z.looseObject({
  collection: z.array(chargeTypeInfoSchema),
})

/** `charges.types`: every charge type of the account, unpaged. */
export interface ChargeTypeList {
  collection: ChargeTypeInfo[]
}
