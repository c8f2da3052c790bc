import * as z from 'zod'

/** Free-form merchant data on a resource, as returned: any JSON values pass through. */
export const metadataSchema = z.record(z.string(), z.unknown())

export type Metadata = z.infer<typeof metadataSchema>

/**
 * Merchant data sent in a create request: flat scalar values, so it can be stored, searched
 * (`metadata[key]=value` on the event list) and echoed back unchanged.
 */
export const requestMetadataSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()], {
    error: 'Expected a string, number, boolean or null (metadata values are flat)',
  }),
)

export type RequestMetadata = z.infer<typeof requestMetadataSchema>
