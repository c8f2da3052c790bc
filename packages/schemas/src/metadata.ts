import * as z from 'zod/v4'
import { boundedText } from './request-text'

/** Free-form merchant data on a resource, as returned: any JSON values pass through. */
export const metadataSchema = z.record(z.string(), z.unknown())

export type Metadata = z.infer<typeof metadataSchema>

/**
 * Bounds of request metadata: every charge and payment keeps its metadata, and every event of
 * the transaction carries it, so it is held to a size a merchant's identifiers fit in easily.
 */
export const metadataLimits = { keys: 50, keyLength: 40, valueLength: 500 } as const

/**
 * Merchant data sent in a create request: flat scalar values, so it can be stored, searched
 * (`metadata[key]=value` on the event list) and echoed back unchanged; at most
 * {@link metadataLimits} keys, key and text value lengths.
 */
export const requestMetadataSchema = z
  .record(
    z.string().max(metadataLimits.keyLength),
    z.union(
      [boundedText(metadataLimits.valueLength), z.number(), z.boolean(), z.null()],
      // A too-long text reports its own length message; anything else is the wrong kind.
      {
        error: (issue) =>
          issue.code === 'invalid_union'
            ? 'Expected a string, number, boolean or null (metadata values are flat)'
            : undefined,
      },
    ),
    {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? `Expected a key of at most ${metadataLimits.keyLength} characters`
          : undefined,
    },
  )
  .refine((metadata) => Object.keys(metadata).length <= metadataLimits.keys, {
    error: `Expected at most ${metadataLimits.keys} keys`,
    abort: true,
  })

export type RequestMetadata = z.infer<typeof requestMetadataSchema>
