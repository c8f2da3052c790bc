// Visible ASCII only: a header value the service, its proxies and its logs all keep verbatim.
const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/

/** What the service takes as an `Idempotency-Key`, for messages that say what was expected. */
export const idempotencyKeyRule = '1 to 255 visible ASCII characters without spaces, such as a UUID'

/** Whether `value` is an `Idempotency-Key` the service takes; it answers any other with a 400. */
export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && idempotencyKeyPattern.test(value)
}
