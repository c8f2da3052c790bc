import * as z from 'zod/v4'
import { queryIntegerSchema } from './query-integer'

/** Largest page a list endpoint returns. */
export const maxPerPage = 100

/** `page` (1-based) and `per_page`; accepts the strings of a URL query. */
export const listQuerySchema = z.object({
  page: queryIntegerSchema(
    z.int().min(1, { error: 'Expected a page number of 1 or more' }),
  ).default(1),
  per_page: queryIntegerSchema(
    z
      .int()
      .min(1, { error: 'Expected at least 1 per page' })
      .max(maxPerPage, { error: `Expected at most ${maxPerPage} per page` }),
  ).default(30),
})

export type ListQuery = z.infer<typeof listQuerySchema>
export type ListQueryInput = z.input<typeof listQuerySchema>
