import * as z from 'zod/v4'

const integerText = /^[+-]?\d+$/

/**
 * A whole number from a URL query, where it arrives as text, or from a caller that passes a
 * number; `schema` then checks its range. Unlike `z.coerce.number()`, which reads `''` and `' '`
 * as 0 and `'0x10'` as 16, only decimal digits (with an optional sign) are read.
 */
export function queryIntegerSchema<Output>(schema: z.ZodType<Output, number>) {
  return z
    .union([z.number(), z.string().regex(integerText).transform(Number)], {
      error: (issue) =>
        `Expected a whole number written in digits, received ${issue.input === '' ? 'an empty value' : JSON.stringify(issue.input)}`,
    })
    .pipe(schema)
}
