import * as z from 'zod/v4'

const expected =
  'Expected an ISO 8601 timestamp with a time zone offset or Z, such as "2025-01-31T12:00:00Z"'

/** An ISO 8601 date-time with seconds and a time zone offset or `Z`. */
export const timestampSchema = z.iso.datetime({
  offset: true,
  // Only the format message is ours; a missing or non-string value keeps zod's "expected string".
  error: (issue) => (issue.code === 'invalid_format' ? expected : undefined),
})
