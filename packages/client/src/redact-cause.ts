/**
 * A copy of an error's cause with every credential removed, to attach as `error.cause`. A custom
 * fetch (or a proxy agent) may put the request's Authorization value in its error's message, its
 * stack, a property or a nested cause; the message we write is redacted, and what we attach must
 * be too, since loggers print causes in full.
 *
 * Errors are rebuilt as plain `Error`s carrying the original `name`, and string or number
 * properties (`code`, `errno`, `syscall`…) redacted; other values become their redacted text.
 * The chain is followed a bounded number of levels, and a cycle ends it.
 */
export function redactCause(
  cause: unknown,
  redact: (text: string) => string,
  depth = 0,
  seen: Set<unknown> = new Set(),
): unknown {
  if (cause === undefined || cause === null || typeof cause === 'boolean') return cause
  if (typeof cause === 'number' || typeof cause === 'bigint') return cause
  if (typeof cause === 'string') return redact(cause)
  if (depth >= maxDepth || seen.has(cause)) return undefined
  seen.add(cause)
  if (!(cause instanceof Error)) return redact(safeText(cause))
  const copy = new Error(redact(cause.message))
  copy.name = cause.name
  copy.stack = redact(cause.stack ?? `${cause.name}: ${cause.message}`)
  for (const key of Object.keys(cause)) {
    if (key === 'cause' || key === 'message' || key === 'stack' || key === 'name') continue
    const value = (cause as unknown as Record<string, unknown>)[key]
    if (typeof value === 'string') Object.assign(copy, { [key]: redact(value) })
    else if (typeof value === 'number' || typeof value === 'boolean') {
      Object.assign(copy, { [key]: value })
    }
  }
  if ('cause' in cause) copy.cause = redactCause(cause.cause, redact, depth + 1, seen)
  return copy
}

const maxDepth = 5

function safeText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}
