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

/**
 * Merchant data sent in a create request: flat scalar values, so it can be stored, searched
 * (`metadata[key]=value` on the event list) and echoed back unchanged.
 *
 * A `__proto__` key is refused rather than stored: zod drops it while copying (prototype
 * pollution guard), so accepting it would silently lose the merchant's data.
 */
export const requestMetadataSchema = z.preprocess((value, context) => {
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
    context.addIssue({
      code: 'custom',
      path: ['__proto__'],
      message: 'The key "__proto__" is reserved; use another metadata key',
      input: value,
    })
  }
  return value
}, flatMetadataSchema)

export type RequestMetadata = z.infer<typeof requestMetadataSchema>
