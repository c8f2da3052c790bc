import * as z from 'zod'

/** Free-form merchant data on a resource, as returned: any JSON values pass through. */
export const metadataSchema = z.record(z.string(), z.unknown())

export type Metadata = z.infer<typeof metadataSchema>

const flatMetadataSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()], {
    error: 'Expected a string, number, boolean or null (metadata values are flat)',
  }),
)

// Keys that reach an object's prototype when a receiver copies metadata carelessly. zod itself
// drops `__proto__` while copying, so accepting it would silently lose the merchant's data.
const reservedKeys = ['__proto__', 'constructor', 'prototype']

/**
 * Merchant data sent in a create request: flat scalar values, so it can be stored, searched
 * (`metadata[key]=value` on the event list) and echoed back unchanged. Prototype keys are
 * refused, each named in the error.
 */
export const requestMetadataSchema = z.preprocess((value, context) => {
  if (typeof value !== 'object' || value === null) return value
  for (const key of reservedKeys) {
    if (Object.hasOwn(value, key)) {
      context.addIssue({
        code: 'custom',
        path: [key],
        message: 'Expected a key that is not __proto__, constructor or prototype',
        input: value,
      })
    }
  }
  return value
}, flatMetadataSchema)

export type RequestMetadata = z.infer<typeof requestMetadataSchema>
