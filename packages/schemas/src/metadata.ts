import * as z from 'zod/v4'
import { boundedText } from './request-text'

/** Free-form merchant data on a resource, as returned: any JSON values pass through. */
export const metadataSchema = z.record(z.string(), z.unknown())

export type Metadata = z.infer<typeof metadataSchema>

/**
 * A charge's metadata as the service keeps it: an object, as the documented examples send, or a
 * string, as integrations written for the production service send (`"42|1001"`). Either is
 * stored and returned exactly as it was sent, on the charge and in every event.
 */
export const chargeMetadataSchema = z.union([metadataSchema, z.string()])

/** A charge's metadata: an object, or a string when the charge was created with one. */
export type ChargeMetadata = Metadata | string

const keys = 50
const valueLength = 500

/**
 * Bounds of request metadata: every charge and payment keeps its metadata, and every event of
 * the transaction carries it, so it is held to a size a merchant's identifiers fit in easily. A
 * charge's metadata sent as a string may be as long as an object's values together.
 */
export const metadataLimits = {
  keys,
  keyLength: 40,
  valueLength,
  textLength: keys * valueLength,
} as const

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
  })

export type RequestMetadata = z.infer<typeof requestMetadataSchema>

/**
 * A charge's metadata as the service reads it: {@link requestMetadataSchema}'s object, or a
 * string of at most `metadataLimits.textLength` characters, kept as it is. `@chargekit/client`
 * sends objects, which the event search can match by key.
 */
export const chargeRequestMetadataSchema = z.union(
  [requestMetadataSchema, boundedText(metadataLimits.textLength)],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? 'Expected an object of flat values (string, number, boolean or null), or a string'
        : undefined,
  },
)
