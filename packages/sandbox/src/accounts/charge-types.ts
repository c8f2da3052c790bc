import { type ChargeTypeInfo, instrumentChargeField } from '@chargekit/schemas'
import * as z from 'zod'
import type { ChargeType } from '../processors/charge-type'

const requestSchemas = new WeakMap<ChargeType, z.ZodObject>()
const descriptions = new WeakMap<ChargeType, ChargeTypeInfo>()

/**
 * The whole `instruments.create` body of a charge type: `charge` and the type's own fields.
 * Built once per charge type.
 */
export function instrumentRequestSchema(chargeType: ChargeType): z.ZodObject {
  let schema = requestSchemas.get(chargeType)
  if (schema === undefined) {
    schema = chargeType.instrumentRequest.extend({ charge: instrumentChargeField })
    requestSchemas.set(chargeType, schema)
  }
  return schema
}

/** A currency the charge type does not take, as the problem of a 400 naming `currency`. */
export function currencyProblems(
  chargeType: ChargeType | undefined,
  currency: unknown,
): Record<string, string[]> {
  const accepted = chargeType?.currencies
  if (accepted === undefined || typeof currency !== 'string' || accepted.includes(currency)) {
    return {}
  }
  return { currency: [`Expected ${accepted.join(' or ')}: ${chargeType?.label} takes no other`] }
}

/**
 * A charge type as `charges.types` lists it, in the shape the provider's own browser form
 * library reads: `payout: false` (it offers only entries where it is exactly false; no charge
 * type pays out), and `schema`, the JSON Schema of what the customer gives, generated from the
 * very zod schema the instrument route validates with, so a form drawn from it asks for exactly
 * what the sandbox accepts. The schema describes the input (what a client sends) without
 * `charge`, which the page adds itself; its `title` is the charge type's label, and every field
 * has a `title` to label its input with.
 */
export function describeChargeType(chargeType: ChargeType): ChargeTypeInfo {
  let description = descriptions.get(chargeType)
  if (description === undefined) {
    description = Object.freeze({
      id: chargeType.id,
      label: chargeType.label,
      recurring: chargeType.recurring,
      payout: false,
      refundable: chargeType.refundable !== false,
      currencies: chargeType.currencies === undefined ? null : [...chargeType.currencies],
      schema: customerFieldsSchema(chargeType),
    })
    descriptions.set(chargeType, description)
  }
  return description
}

function customerFieldsSchema(chargeType: ChargeType): Record<string, unknown> {
  const schema = z.toJSONSchema(chargeType.instrumentRequest, {
    io: 'input',
    unrepresentable: 'any',
  }) as { title?: unknown; properties?: Record<string, Record<string, unknown>> }
  schema.title ??= chargeType.label
  // A processor's own charge type may leave its fields untitled: the form still needs labels.
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    field.title ??= fieldTitle(name)
  }
  return schema
}

/** `phone_number` → "Phone number". */
function fieldTitle(name: string): string {
  const words = name.replaceAll('_', ' ')
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`
}
