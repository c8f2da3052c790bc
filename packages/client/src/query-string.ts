/** A query value: arrays repeat the key, records become `key[field]=value`, Dates go out as ISO. */
export type QueryValue =
  | string
  | number
  | boolean
  | Date
  | readonly (string | number)[]
  | Readonly<Record<string, string | number | boolean>>
  | null
  | undefined

/**
 * Serializes list parameters the way the service reads them: `type=a&type=b`,
 * `metadata[order_id]=42`, `dismissed=false`. `undefined`/`null` are left out. Returns `''` or
 * a string starting with `?`.
 */
export function toQueryString(params: object | undefined): string {
  if (params === undefined) return ''
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params) as [string, QueryValue][]) {
    if (value === undefined || value === null) continue
    if (Array.isArray(value)) {
      for (const item of value) search.append(key, String(item))
    } else if (value instanceof Date) {
      search.append(key, value.toISOString())
    } else if (typeof value === 'object') {
      for (const [field, item] of Object.entries(value))
        search.append(`${key}[${field}]`, String(item))
    } else {
      search.append(key, String(value))
    }
  }
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}
