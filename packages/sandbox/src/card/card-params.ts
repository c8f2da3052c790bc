import type { CardParams } from '@chargekit/schemas'
import type { CardInput } from '../processors/processor'
import { issuerOf } from './bin-table'
import { cardBrand } from './card-brand'

export interface CardFields {
  name: string
  number: string
  expiration_month: number
  expiration_year: number
  cvc: string
}

/** The card as a processor sees it (the full number only ever goes to `authorize`). */
export function toCardInput(fields: CardFields): CardInput {
  return {
    name: fields.name,
    number: fields.number,
    expirationMonth: fields.expiration_month,
    expirationYear: fields.expiration_year,
    cvc: fields.cvc,
    brand: cardBrand(fields.number),
    bin: fields.number.slice(0, 6),
    last4: fields.number.slice(-4),
  }
}

/**
 * The instrument's `params`: brand, BIN, issuer, country, expiry, last 4 digits, and the
 * account's fingerprint of the number, which identifies the same card within the account.
 */
export function cardParams(
  fields: CardFields,
  fingerprint: (value: string) => string,
  enable3ds: boolean,
): CardParams {
  const bin = fields.number.slice(0, 6)
  return {
    ...issuerOf(bin),
    bin,
    brand: cardBrand(fields.number),
    enable3ds,
    expiration_month: fields.expiration_month,
    expiration_year: fields.expiration_year,
    fingerprint: fingerprint(fields.number),
    last_4_digits: fields.number.slice(-4),
    name: fields.name,
  }
}

/** A card is valid through the last day of its expiration month. */
export function isCardExpired(fields: CardFields, now: Date): boolean {
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth() + 1
  return (
    fields.expiration_year < year ||
    (fields.expiration_year === year && fields.expiration_month < month)
  )
}
