import type * as z from 'zod/v4'

/** The key used for a problem with the value as a whole (not one of its fields). */
export const rootIssueKey = '(root)'

// Zod's English messages, reworded so a missing field reads as "Required" and every message
// starts with what was expected.
const missingPattern = /^Invalid input: expected (.+), received undefined$/
const typePattern = /^Invalid input: (expected .+)$/

function describeIssue(issue: z.core.$ZodIssue): string {
  const missing = missingPattern.exec(issue.message)
  if (missing) return `Required: expected ${missing[1]}`
  const wrongType = typePattern.exec(issue.message)
  if (wrongType?.[1]) return `${wrongType[1].charAt(0).toUpperCase()}${wrongType[1].slice(1)}`
  return issue.message
}

/** `['channels', 0]` → `channels.0`; the whole value → {@link rootIssueKey}. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? rootIssueKey : path.map(String).join('.')
}

/**
 * The issues to report for `issue`. Zod reports a union that failed as a whole ("Expected an
 * object or a string"); when exactly one of its options got inside the value (an object with
 * one bad field), that option's own issues say more, and name the field.
 */
function reportedIssues(
  issue: z.core.$ZodIssue,
  prefix: readonly PropertyKey[],
): { path: PropertyKey[]; message: string }[] {
  const path = [...prefix, ...issue.path]
  if (issue.code === 'invalid_union') {
    const entered = issue.errors.filter((option) => option.some((inner) => inner.path.length > 0))
    if (entered.length === 1) {
      return (entered[0] ?? []).flatMap((inner) => reportedIssues(inner, path))
    }
  }
  return [{ path, message: describeIssue(issue) }]
}

/**
 * Turns a ZodError into the `parameters` map of a 400 body: dotted field paths
 * (`channels.0`, `metadata.order_id`) to messages that say what was expected.
 */
export function formatZodIssues(error: z.ZodError): Record<string, string[]> {
  const parameters: Record<string, string[]> = {}
  for (const { path, message } of error.issues.flatMap((issue) => reportedIssues(issue, []))) {
    const key = formatIssuePath(path)
    const messages = parameters[key] ?? []
    if (!messages.includes(message)) messages.push(message)
    parameters[key] = messages
  }
  return parameters
}
