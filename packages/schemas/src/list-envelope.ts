import * as z from 'zod/v4'

export const paginationSchema = z.looseObject({
  page: z.int().min(1),
  per_page: z.int().min(1),
  total: z.int().min(0),
})

export type Pagination = z.infer<typeof paginationSchema>

/** One page of a list endpoint: newest first, with the filters that were applied. */
export function listEnvelopeSchema<Item extends z.ZodType>(item: Item) {
  return z.looseObject({
    collection: z.array(item),
    pagination: paginationSchema,
    filters: z.record(z.string(), z.unknown()),
  })
}

/** A page of `Item`s, as {@link listEnvelopeSchema} yields it. */
export type ListEnvelope<Item> = z.infer<ReturnType<typeof listEnvelopeSchema<z.ZodType<Item>>>>
