import { type ChargeTypeInfo, createInstrumentRequestSchema } from '@chargekit/schemas'
import * as z from 'zod'

const knownLabels: Readonly<Record<string, string>> = {
  card_onetime: 'Card one-time payment',
  card_recurring: 'Card recurring payment',
}

/** The human-readable `charge_type_label`: `card_onetime` → "Card one-time payment". */
export function chargeTypeLabel(chargeType: string): string {
  const known = knownLabels[chargeType]
  if (known !== undefined) return known
  const words = chargeType.split('_').join(' ')
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`
}

/** `*_recurring` charge types allow several payments from one instrument. */
export function isRecurringChargeType(chargeType: string): boolean {
  return chargeType.endsWith('_recurring')
}

/**
 * The JSON Schema of the POST /v2/instruments body, generated from the very zod schema that
 * route validates with, so a form drawn from it asks for exactly what the sandbox accepts. It
 * describes the input (what a client sends), and is built once. Every charge type takes a card
 * today; a charge type whose processor takes other details gets its schema here.
 */
const cardInstrumentRequestJsonSchema = Object.freeze(
  z.toJSONSchema(createInstrumentRequestSchema, { io: 'input', unrepresentable: 'any' }),
)

/** A charge type as GET /v2/charges/types lists it. */
export function describeChargeType(chargeType: string): ChargeTypeInfo {
  return {
    id: chargeType,
    label: chargeTypeLabel(chargeType),
    recurring: isRecurringChargeType(chargeType),
    schema: cardInstrumentRequestJsonSchema,
  }
}
