import * as z from 'zod/v4'
import { describedField } from './field-descriptions'
import { boundedText, requestTextLimits } from './request-text'

/** The charge an instrument request is for: every charge type's request names it. */
export const instrumentChargeField = describedField(
  'The id of the charge the customer pays, such as ch_…',
  z.string().min(1),
)

/**
 * A card number as people type it: 12 to 19 digits, grouped by single spaces or dashes or not
 * (`4242 4242 4242 4242`). Part of the JSON Schema, so a payment form checks what the customer
 * typed with it as it is.
 */
const cardNumberPattern = /^\d(?:[ -]?\d){11,18}$/

/** What a card customer enters (`card`, `card_onetime`, `card_recurring`). */
export const cardDetailsSchema = z.object({
  name: describedField(
    "The cardholder's name, as on the card",
    boundedText(requestTextLimits.name).min(1),
  ).meta({ title: 'Cardholder name' }),
  // Luhn is not checked: test numbers often fail it and the processor is the authority.
  number: describedField(
    'The card number: 12 to 19 digits, grouped by spaces or dashes or not',
    z.string().regex(cardNumberPattern),
  )
    .meta({ title: 'Card number', examples: ['4242 4242 4242 4242', '4242424242424242'] })
    // Read with the separators removed: the card is its digits, however they were grouped.
    .transform((text) => text.replace(/[ -]/g, '')),
  expiration_month: describedField(
    "The card's expiry month, a number from 1 to 12",
    z.int().min(1).max(12),
  ).meta({ title: 'Expiry month' }),
  expiration_year: describedField(
    "The card's expiry year, in four digits such as 2030",
    z.int().min(2000).max(2099),
  ).meta({ title: 'Expiry year' }),
  cvc: describedField(
    "The card's security code: the 3 or 4 digits printed on it",
    z.string().regex(/^\d{3,4}$/),
  ).meta({ title: 'Security code (CVC)' }),
})

/**
 * A Portuguese mobile number as people write it: 9 digits starting with 9, grouped by spaces or
 * hyphens or not, after an optional country code (`+351`, `00351`, `351`).
 */
const portugueseMobilePattern = /^(?:(?:\+|00)?351[ -]?)?9\d{2}[ -]?\d{3}[ -]?\d{3}$/

/**
 * What an MB WAY customer gives: the mobile number registered in the MB WAY app, where the
 * payment request is sent. It is read as people write it (`+351 912 345 678`) and normalised to
 * its 9 digits (`912345678`); the pattern is part of the JSON Schema, so a form can check it too.
 */
export const mbwayDetailsSchema = z.object({
  phone_number: describedField(
    'A Portuguese mobile number registered in MB WAY, where the payment request goes: 9 digits starting with 9, such as 912345678 or +351 912 345 678',
    z.string().regex(portugueseMobilePattern),
  )
    .meta({ title: 'Phone number', examples: ['912345678', '+351 912 345 678'] })
    // The pattern guarantees the last 9 digits are the number, whatever came before them.
    .transform((text) => text.replace(/\D/g, '').slice(-9)),
})

/** `instruments.create` body for a card charge. */
export const createInstrumentRequestSchema = cardDetailsSchema.extend({
  charge: instrumentChargeField,
})

/** `instruments.create` body for an MB WAY charge. */
export const mbwayInstrumentRequestSchema = mbwayDetailsSchema.extend({
  charge: instrumentChargeField,
})

/**
 * `instruments.create` body for a charge type the customer gives nothing for at this step: a
 * payment reference (`multibanco`, `payshop_reference`) or an approval page (`paypal`).
 */
export const chargeOnlyInstrumentRequestSchema = z.object({ charge: instrumentChargeField })

/**
 * A card instrument request: the charge, and the card the customer entered (its number with or
 * without the spaces or dashes the customer typed).
 */
export type CreateInstrumentRequest = z.input<typeof createInstrumentRequestSchema>
export type MbwayInstrumentRequest = z.input<typeof mbwayInstrumentRequestSchema>
export type ChargeOnlyInstrumentRequest = z.infer<typeof chargeOnlyInstrumentRequestSchema>

/**
 * An instrument request of any charge type this package knows: each takes the fields its schema
 * in `charges.types` lists (a card, MB WAY's phone number, nothing for a reference or
 * PayPal). A charge type of another processor takes what that processor documents.
 */
export type InstrumentCreateParams =
  | CreateInstrumentRequest
  | MbwayInstrumentRequest
  | ChargeOnlyInstrumentRequest
