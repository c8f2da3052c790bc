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

/**
 * Types an app tells chargekit about its own data, by augmenting this interface in the package it
 * imports (`@chargekit/client`, `@chargekit/webhooks` and `@chargekit/schemas` share it):
 *
 * ```ts
 * declare module '@chargekit/client' {
 *   interface Register {
 *     chargeMetadata: { order_id: string }
 *   }
 * }
 * ```
 *
 * - `chargeMetadata`: the metadata the app's charges carry. It types `metadata` on charges and
 *   on every event (the handlers' too), and `charges.create` then requires it. A promise the app
 *   makes, not a check: charges made another way (a dashboard, `chargekit trigger`) carry what
 *   they were given.
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty until an app augments it
export interface Register {}

/** The type an app registered under `Key` in {@link Register}, else `Fallback`. */
type Registered<Key extends string, Fallback> =
  Register extends Record<Key, infer Type> ? Type : Fallback

/**
 * A charge's metadata: an object, or a string when the charge was created with one; the type
 * the app registered as `chargeMetadata` in {@link Register}, if it did.
 */
export type ChargeMetadata = Registered<'chargeMetadata', Metadata | string>

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
 * The `metadata` of `charges.create`: the type the app registered as `chargeMetadata` in
 * {@link Register}, required unless every key of it is optional, or else any
 * {@link RequestMetadata}, optional.
 */
export type ChargeMetadataParam =
  Register extends Record<'chargeMetadata', infer Registered>
    ? // biome-ignore lint/complexity/noBannedTypes: `{}` is what a type whose keys are all optional accepts
      {} extends Registered
      ? { metadata?: (Registered & RequestMetadata) | undefined }
      : { metadata: Registered & RequestMetadata }
    : { metadata?: RequestMetadata | undefined }

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
