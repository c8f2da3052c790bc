import * as z from 'zod/v4'
import { type OpenEnum, openEnum } from './statuses'

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
  phone_number: z.string().optional(),
})

/**
 * An instrument's `params`: card details for a card; other payment methods show their own
 * (MB WAY: the masked `phone_number` and a `fingerprint`). Every field is optional.
 */
export interface CardParams {
  /** The issuing bank. */
  bank?: string | undefined
  /** The issuing bank's phone number. */
  bank_phone?: string | undefined
  /** The issuing bank's website. */
  bank_website?: string | undefined
  /** The card's first six digits. */
  bin?: string | undefined
  /** The card network. */
  brand?: OpenEnum<CardBrand> | undefined
  /** The issuer's country name. */
  country?: string | undefined
  /** The issuer's country, ISO 3166 alpha-2. */
  country_isoa2?: string | undefined
  /** The issuer's country, ISO 3166 alpha-3. */
  country_isoa3?: string | undefined
  /** The issuer's country, ISO 3166 numeric. */
  country_isonumber?: string | undefined
  /** Whether 3-D Secure was asked for. */
  enable3ds?: boolean | undefined
  /** The card's expiry month, 1 to 12. */
  expiration_month?: number | undefined
  /** The card's expiry year, four digits. */
  expiration_year?: number | undefined
  /** Identifies the same card (or phone) within the account, without revealing it. */
  fingerprint?: string | undefined
  /** The card's last four digits. */
  last_4_digits?: string | undefined
  /** The cardholder's name. */
  name?: string | undefined
  /** The funding type, such as `CREDIT`. */
  type?: OpenEnum<CardType> | undefined
  /** MB WAY: the customer's phone number, masked. */
  phone_number?: string | undefined
}
