/** Web `Headers`, or Node's `IncomingHttpHeaders` (lower-case keys, repeated ones as arrays). */
export type HeaderSource =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>

/** One request header by lower-case name, whatever the transport stored the headers as. */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (isWebHeaders(headers)) return headers.get(name) ?? undefined
  const value = headers[name] ?? findCaseInsensitive(headers, name)
  // Repeated headers are joined the way `Headers.get` joins them, so both transports agree.
  return typeof value === 'string' ? value : value?.join(', ')
}

function isWebHeaders(headers: HeaderSource): headers is Headers {
  return typeof (headers as Headers).get === 'function'
}

/** Node lower-cases header names, but hand-built records (tests, Lambda events) may not. */
function findCaseInsensitive(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  name: string,
) {
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === name) return headers[key]
  }
  return undefined
}
