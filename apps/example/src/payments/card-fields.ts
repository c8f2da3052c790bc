import type { ChargekitClient } from '@chargekit/client'
import * as z from 'zod'

/**
 * One input of the card form, read from the JSON Schema the service publishes for its
 * instrument request (`GET /v2/charges/types`): the shop draws whatever fields the service asks
 * for, and the browser sends them as the schema types them.
 */
export interface CardField {
  name: string
  type: 'string' | 'integer'
  required: boolean
  /** Only digits are valid (a card number, a CVC): typed spaces and dashes are dropped. */
  digitsOnly: boolean
  minimum?: number
  maximum?: number
  maxLength?: number
}

/** The subset of JSON Schema the form reads; anything else in the schema is ignored. */
const propertySchema = z.looseObject({
  type: z.enum(['string', 'integer', 'number']).optional(),
  pattern: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  maxLength: z.number().optional(),
})
const requestSchema = z.looseObject({
  properties: z.record(z.string(), propertySchema),
  required: z.array(z.string()).default([]),
})

/** The charge type the shop sells with. */
const chargeType = 'card_onetime'

export function cardFieldsFrom(types: readonly { id: string; schema: unknown }[]): CardField[] {
  const type = types.find((candidate) => candidate.id === chargeType)
  if (!type) throw new Error(`The payment service offers no ${chargeType} charge type.`)
  const schema = requestSchema.parse(type.schema)
  return (
    Object.entries(schema.properties)
      // The charge is not the customer's to type: the page sends the order's own.
      .filter(([name]) => name !== 'charge')
      .map(([name, property]) => ({
        name,
        type: property.type === 'integer' || property.type === 'number' ? 'integer' : 'string',
        required: schema.required.includes(name),
        digitsOnly: property.pattern?.startsWith('^\\d') ?? false,
        ...(property.minimum === undefined ? {} : { minimum: property.minimum }),
        ...(property.maximum === undefined ? {} : { maximum: property.maximum }),
        ...(property.maxLength === undefined ? {} : { maxLength: property.maxLength }),
      }))
  )
}

/**
 * The card form's fields, asked of the service once and then kept: the schema changes only with
 * the service itself. A failed request is not kept, so the next page asks again.
 */
export function cardFieldSource(client: Pick<ChargekitClient, 'charges'>) {
  let fields: Promise<CardField[]> | undefined
  return () => {
    if (!fields) {
      fields = client.charges.types().then(cardFieldsFrom)
      fields.catch(() => {
        fields = undefined
      })
    }
    return fields
  }
}
