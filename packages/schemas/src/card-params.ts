import * as z from 'zod'

/** Card details of an instrument (SPEC "Instrument params"). */
export const cardParamsSchema = z.looseObject({
  bank: z.string(),
  bank_phone: z.string(),
  bank_website: z.string(),
  bin: z.string(),
  brand: z.string(),
  country: z.string(),
  country_isoa2: z.string(),
  country_isoa3: z.string(),
  country_isonumber: z.string(),
  enable3ds: z.boolean(),
  expiration_month: z.int().min(1).max(12),
  expiration_year: z.int(),
  fingerprint: z.string(),
  last_4_digits: z.string(),
  name: z.string(),
  type: z.string(),
})

export type CardParams = z.infer<typeof cardParamsSchema>
