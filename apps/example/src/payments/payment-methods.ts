import type { ChargekitClient } from '@chargekit/client'
import * as z from 'zod'

/**
 * One input of a payment form (the card's fields, MB WAY's phone number), read from the JSON
 * Schema the service publishes for its instrument request (`GET /v2/charges/types`): the shop
 * draws whatever fields the service asks for, and the browser sends them as the schema types them.
 */
export interface InstrumentField {
  name: string
  type: 'string' | 'integer'
  required: boolean
  /** Only digits are valid (a card number, a CVC): typed spaces and dashes are dropped. */
  digitsOnly: boolean
  /** The schema's label for the field ("Card number"). */
  title?: string
  /** The schema's own description of the field, shown as a hint. */
  description?: string
  minimum?: number
  maximum?: number
  maxLength?: number
}

/** The charge types the service offers this account, and what each asks of the customer. */
export interface PaymentMethods {
  chargeTypes: ReadonlySet<string>
  /** The inputs of a charge type's form; throws when the service does not offer it. */
  fieldsOf(chargeType: string): InstrumentField[]
}

/** The subset of JSON Schema the forms read; anything else in the schema is ignored. */
const propertySchema = z.looseObject({
  type: z.enum(['string', 'integer', 'number']).optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  pattern: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  maxLength: z.number().optional(),
})
const requestSchema = z.looseObject({
  properties: z.record(z.string(), propertySchema).default({}),
  required: z.array(z.string()).default([]),
})

export function paymentMethodsFrom(
  types: readonly { id: string; schema: unknown }[],
): PaymentMethods {
  const fields = new Map<string, InstrumentField[]>()
  return {
    chargeTypes: new Set(types.map((type) => type.id)),
    fieldsOf(chargeType) {
      let known = fields.get(chargeType)
      if (!known) {
        const type = types.find((candidate) => candidate.id === chargeType)
        if (!type) throw new Error(`The payment service offers no ${chargeType} charge type.`)
        known = fieldsFrom(requestSchema.parse(type.schema))
        fields.set(chargeType, known)
      }
      return known
    },
  }
}

function fieldsFrom(schema: z.output<typeof requestSchema>): InstrumentField[] {
  // The schema lists what the customer gives; the page adds the order's own charge.
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    type: property.type === 'integer' || property.type === 'number' ? 'integer' : 'string',
    required: schema.required.includes(name),
    digitsOnly: property.pattern?.startsWith('^\\d') ?? false,
    ...(property.title === undefined ? {} : { title: property.title }),
    ...(property.description === undefined ? {} : { description: property.description }),
    ...(property.minimum === undefined ? {} : { minimum: property.minimum }),
    ...(property.maximum === undefined ? {} : { maximum: property.maximum }),
    ...(property.maxLength === undefined ? {} : { maxLength: property.maxLength }),
  }))
}

/**
 * The service's payment methods, asked once and then kept: the charge types and their schemas
 * change only with the service itself. A failed request is not kept, so the next page asks again.
 */
export function paymentMethodSource(client: Pick<ChargekitClient, 'charges'>) {
  let methods: Promise<PaymentMethods> | undefined
  return () => {
    if (!methods) {
      methods = client.charges.types().then(paymentMethodsFrom)
      methods.catch(() => {
        methods = undefined
      })
    }
    return methods
  }
}
