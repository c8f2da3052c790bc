import * as z from 'zod/v4'

/**
 * Longest text a request may carry in a free-form field. The service stores what it is sent and
 * returns it in every event of the transaction, so nothing it keeps may be unbounded.
 */
export const requestTextLimits = {
  /** `description` of a charge, a payment or a refund. */
  description: 1000,
  /** The cardholder's `name`. */
  name: 200,
  /** `events_url` and `redirect_url`. */
  url: 2048,
  /** A dispute's `reason`. */
  reason: 200,
} as const

/** A string of at most `max` characters, refused with a message naming the limit. */
export function boundedText(max: number) {
  return z.string().max(max, { error: `Expected at most ${max} characters` })
}
