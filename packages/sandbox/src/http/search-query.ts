const metadataParameter = /^metadata\[(.+)\]$/

/**
 * A list's URL query as its schema expects it: `metadata[key]=value` gathered into `metadata`,
 * a `repeatable` parameter given twice or more as a list, anything else as the last value
 * given. Built from entries so that a `__proto__` name stays an ordinary key.
 */
export function searchQueryOf(
  url: URL,
  repeatable: readonly string[] = [],
): Record<string, unknown> {
  const entries = new Map<string, unknown>()
  const lists = new Map<string, string[]>()
  const metadata: [string, string][] = []
  for (const [name, value] of url.searchParams) {
    const key = metadataParameter.exec(name)?.[1]
    if (key !== undefined) metadata.push([key, value])
    else if (repeatable.includes(name)) lists.set(name, [...(lists.get(name) ?? []), value])
    else entries.set(name, value)
  }
  for (const [name, values] of lists) entries.set(name, values.length === 1 ? values[0] : values)
  if (metadata.length > 0) entries.set('metadata', Object.fromEntries(metadata))
  return Object.fromEntries(entries)
}

/** The URL's spelling of a search schema's keys, for the message naming the accepted ones. */
export function searchParameterNames(shape: object): string[] {
  return Object.keys(shape).map((key) => (key === 'metadata' ? 'metadata[key]' : key))
}
