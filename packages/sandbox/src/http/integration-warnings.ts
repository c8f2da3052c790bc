import type { IntegrationWarning } from '@chargekit/schemas'

/**
 * Integration warnings: the sandbox accepts what the production service accepts (a trailing
 * slash, numbers sent as strings, unknown fields, form bodies…), answers as the service would,
 * and tells the merchant what `@chargekit/client` would have sent instead. A request's warnings
 * reach the merchant three ways: the {@link integrationWarningsHeader} on the answer, the request
 * log line, and the dashboard's list of recent requests.
 */

/** The answer header listing a request's warnings; absent when there are none. */
export const integrationWarningsHeader = 'chargekit-integration-warnings'

/**
 * Warnings kept per request. A body of thousands of unknown fields still costs a bounded amount
 * of memory, log and header; the rest is counted in {@link IntegrationWarnings.omitted}.
 */
export const maxWarningsPerRequest = 20

/** The warnings of one request, each (code, field) once, at most {@link maxWarningsPerRequest}. */
export class IntegrationWarnings {
  readonly #list: IntegrationWarning[] = []
  readonly #seen = new Set<string>()
  #omitted = 0

  add(warning: IntegrationWarning): void {
    const key = `${warning.code} ${warning.field ?? ''}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    if (this.#list.length < maxWarningsPerRequest) this.#list.push(warning)
    else this.#omitted++
  }

  /** Like {@link add}, but builds the warning only if there is room for it (a "did you mean" costs). */
  addLazily(build: () => IntegrationWarning): void {
    if (this.#list.length < maxWarningsPerRequest) this.add(build())
    else this.#omitted++
  }

  /** Adds another list's warnings, and counts what it omitted. */
  merge(other: { readonly list: readonly IntegrationWarning[]; readonly omitted: number }): void {
    for (const warning of other.list) this.add(warning)
    this.#omitted += other.omitted
  }

  get list(): readonly IntegrationWarning[] {
    return this.#list
  }

  /** Warnings beyond the kept ones, only counted. */
  get omitted(): number {
    return this.#omitted
  }

  get isEmpty(): boolean {
    return this.#list.length === 0
  }
}

/**
 * A field path (or a URL path) as printable ASCII, safe in a header, a log line and a message:
 * characters outside `!`…`~` (and `%`) are percent-encoded as UTF-8, and a label longer than 80
 * characters is cut (unknown field names are whatever the request sent).
 */
export function fieldLabel(path: readonly (string | number)[]): string {
  let label = ''
  for (const character of path.map(String).join('.')) {
    label += /^[\x21-\x24\x26-\x7e]$/.test(character)
      ? character
      : [...Buffer.from(character, 'utf8')]
          .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
          .join('')
    if (label.length > 80) return `${label.slice(0, 77)}...`
  }
  return label
}

/**
 * The header value: an RFC 8941 list, one member per warning, the code as a token with `field`
 * and `instead` as string parameters; `more;count=N` ends it when warnings were omitted:
 * `numeric_string;field="amount";instead="amount as a JSON number", unknown_field;field="payment_id";instead="no payment_id field"`.
 */
export function formatWarningsHeader(warnings: IntegrationWarnings): string {
  const members = warnings.list.map((warning) => {
    const field = warning.field === undefined ? '' : `;field=${structuredString(warning.field)}`
    return `${warning.code}${field};instead=${structuredString(warning.instead)}`
  })
  if (warnings.omitted > 0) members.push(`more;count=${warnings.omitted}`)
  return members.join(', ')
}

function structuredString(text: string): string {
  // Messages and labels are ASCII already; anything else is replaced rather than sent raw, so the
  // header can never be refused by a client as an invalid byte string.
  const ascii = text.replace(/[^\x20-\x7e]/g, '?')
  return `"${ascii.replace(/[\\"]/g, (character) => `\\${character}`)}"`
}

/** One line per request for the log: `numeric_string amount (instead: amount as a JSON number); …`. */
export function formatWarningsForLog(warnings: IntegrationWarnings): string {
  const parts = warnings.list.map(
    (warning) =>
      `${warning.code}${warning.field === undefined ? '' : ` ${warning.field}`} (instead: ${warning.instead})`,
  )
  if (warnings.omitted > 0) parts.push(`${warnings.omitted} more`)
  return parts.join('; ')
}

// validateBody sees only the parsed body, not the request: the endpoint links the two here, so
// route handlers stay `validateBody(schema, body)` and still report to the right request.
const warningsByBody = new WeakMap<object, IntegrationWarnings>()

/** Sends the warnings found while reading `body` against a schema to `warnings`. */
export function linkBodyWarnings(body: unknown, warnings: IntegrationWarnings): void {
  if (typeof body === 'object' && body !== null) warningsByBody.set(body, warnings)
}

/** Where warnings about `body` go: its request's list, or a detached one. */
export function bodyWarnings(body: unknown): IntegrationWarnings {
  const linked = typeof body === 'object' && body !== null ? warningsByBody.get(body) : undefined
  return linked ?? new IntegrationWarnings()
}
