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

/** An id a list is narrowed to, or a status word (matched as given). */
const filterSchema = z.string().min(1).optional()

/** Charges: pages, and `metadata[key]=value` (every pair must match). */
export const chargeListQuerySchema = listQuerySchema.extend({
  metadata: z.record(z.string(), z.string()).optional(),
})

/** Instruments of one charge, or in one status. */
export const instrumentListQuerySchema = listQuerySchema.extend({
  charge: filterSchema,
  status: filterSchema,
})

/** Payments of one charge or captured from one instrument. */
export const paymentListQuerySchema = listQuerySchema.extend({
  charge: filterSchema,
  instrument: filterSchema,
})

/** Refunds of one payment or charge, or in one status. */
export const refundListQuerySchema = listQuerySchema.extend({
  payment: filterSchema,
  charge: filterSchema,
  status: filterSchema,
})

/** Reversals of one instrument or charge. */
export const reversalListQuerySchema = listQuerySchema.extend({
  instrument: filterSchema,
  charge: filterSchema,
})

/** Disputes of one payment or charge, or in one status. */
export const disputeListQuerySchema = listQuerySchema.extend({
  payment: filterSchema,
  charge: filterSchema,
  status: filterSchema,
})
