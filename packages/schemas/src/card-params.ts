import * as z from 'zod'
import { openEnum } from './statuses'

/** Card networks the service names in `params.brand`. */
export const cardBrandSchema = z.enum([
  'VISA',
  'MASTERCARD',
  'AMEX',
  'DISCOVER',
  'JCB',
  'DINERS',
  'UNIONPAY',
  'UNKNOWN',
])
export type CardBrand = z.infer<typeof cardBrandSchema>

/** Funding types the service names in `params.type`. */
export const cardTypeSchema = z.enum(['CREDIT', 'DEBIT', 'PREPAID'])
export type CardType = z.infer<typeof cardTypeSchema>

/**
 * Card details of an instrument. Every field is optional and unknown fields are kept: issuers
 * and processors fill different subsets (a card without issuer data has no `bank`), and a
 * receiver must not fail on an instrument because one detail is missing or new. `brand` and
 * `type` keep values newer than this package.
 */
export const cardParamsSchema = z.looseObject({
  bank: z.string().optional(),
  bank_phone: z.string().optional(),
  bank_website: z.string().optional(),
  bin: z.string().optional(),
  brand: openEnum(cardBrandSchema).optional(),
  country: z.string().optional(),
  country_isoa2: z.string().optional(),
  country_isoa3: z.string().optional(),
  country_isonumber: z.string().optional(),
  enable3ds: z.boolean().optional(),
  expiration_month: z.int().min(1).max(12).optional(),
  expiration_year: z.int().optional(),
  fingerprint: z.string().optional(),
  last_4_digits: z.string().optional(),
  name: z.string().optional(),
  type: openEnum(cardTypeSchema).optional(),
})

export type CardParams = z.infer<typeof cardParamsSchema>
