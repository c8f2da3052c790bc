import * as z from 'zod/v4'

/**
 * One charge type an account's channels offer, as GET /v2/charges/types lists it. `schema` is
 * the JSON Schema of the POST /v2/instruments body for that type, so a payment form can be
 * drawn from it; it is read as any JSON object, since its vocabulary is JSON Schema's.
 */
export const chargeTypeInfoSchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  recurring: z.boolean(),
  schema: z.record(z.string(), z.unknown()),
  /** Whether its payments can be refunded through the API (chargekit's addition). */
  refundable: z.boolean().optional(),
  /** The currencies it takes; null for any (chargekit's addition). */
  currencies: z.array(z.string()).nullable().optional(),
})

export type ChargeTypeInfo = z.infer<typeof chargeTypeInfoSchema>

/** GET /v2/charges/types: every charge type of the account, unpaged. */
export const chargeTypeListSchema = z.looseObject({
  collection: z.array(chargeTypeInfoSchema),
})

export type ChargeTypeList = z.infer<typeof chargeTypeListSchema>
