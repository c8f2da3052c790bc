import * as z from 'zod/v4'

export const paginationSchema = z.looseObject({
  page: z.int().min(1),
  per_page: z.int().min(1),
  total: z.int().min(0),
})

/** Where a page stands in its list. */
export interface Pagination {
  /** This page, 1-based. */
  page: number
  /** Items per page. */
  per_page: number
  /** Items in the whole list. */
  total: number
}

/** One page of a list endpoint: newest first, with the filters that were applied. */
export function listEnvelopeSchema<Item extends z.ZodType>(item: Item) {
  return z.looseObject({
    collection: z.array(item),
    pagination: paginationSchema,
    filters: z.record(z.string(), z.unknown()),
  })
}

/** A page of `Item`s, as {@link listEnvelopeSchema} yields it. */
export interface ListEnvelope<Item> {
  /** The page's items, newest first. */
  collection: Item[]
  /** Where the page stands in the list. */
  pagination: Pagination
  /** The filters the service applied, as it echoes them. */
  filters: Record<string, unknown>
}
