/**
 * What a caller gave, for an error message: strings quoted, numbers and the like as `String`
 * prints them, objects, arrays and functions by their kind (their contents could be long, or hold
 * a secret). Shared by the chargekit packages' option and argument checks, the browser client's
 * included, which is why it lives here and not beside the zod schemas.
 */
export function describeGiven(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'function') return 'a function'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object' && value !== null) return 'an object'
  return String(value)
}
