/**
 * JSON text with object keys sorted at every level, so `{"a":1,"b":2}` and `{"b":2,"a":1}`
 * compare equal: an idempotent retry is "the same body" whatever its key order.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      )
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
