import { type ChargeTypeInfo, instrumentChargeField } from '@chargekit/schemas'
import * as z from 'zod'
import type { ChargeType } from '../processors/charge-type'

const requestSchemas = new WeakMap<ChargeType, z.ZodObject>()
const descriptions = new WeakMap<ChargeType, ChargeTypeInfo>()

/**
 * The whole POST /v2/instruments body of a charge type: `charge` and the type's own fields.
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
 * A charge type as GET /v2/charges/types lists it. `schema` is the JSON Schema of the
 * POST /v2/instruments body, generated from the very zod schema that route validates with, so
 * a form drawn from it asks for exactly what the sandbox accepts. It describes the input (what a
 * client sends).
 */
export function describeChargeType(chargeType: ChargeType): ChargeTypeInfo {
  let description = descriptions.get(chargeType)
  if (description === undefined) {
    description = Object.freeze({
      id: chargeType.id,
      label: chargeType.label,
      recurring: chargeType.recurring,
      refundable: chargeType.refundable !== false,
      currencies: chargeType.currencies === undefined ? null : [...chargeType.currencies],
      schema: z.toJSONSchema(instrumentRequestSchema(chargeType), {
        io: 'input',
        unrepresentable: 'any',
      }),
    })
    descriptions.set(chargeType, description)
  }
  return description
}
