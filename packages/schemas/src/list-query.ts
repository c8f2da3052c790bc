import * as z from 'zod/v4'
import { describedField } from './field-descriptions'
import { queryIntegerSchema } from './query-integer'

/** Largest page a list endpoint returns. */
export const maxPerPage = 100

/** `page` (1-based) and `per_page`; accepts the strings of a URL query. */
export const listQuerySchema = z.object({
  page: queryIntegerSchema(
    describedField('The page to return, counted from 1 (default 1)', z.int().min(1)),
  ).default(1),
  per_page: queryIntegerSchema(
    describedField(
      `The number of objects a page holds, from 1 to ${maxPerPage} (default 30)`,
      z.int().min(1).max(maxPerPage),
    ),
  ).default(30),
})

export type ListQuery = z.infer<typeof listQuerySchema>
export type ListQueryInput = z.input<typeof listQuerySchema>

/** A filter of a list: an id the list is narrowed to, or a status word (matched as given). */
function filter(description: string) {
  return describedField(description, z.string().min(1)).optional()
}

/** Charges: pages, and `metadata[key]=value` (every pair must match). */
export const chargeListQuerySchema = listQuerySchema.extend({
  metadata: describedField(
    'The metadata values the charges to list have, every one of them',
    z.record(z.string(), z.string()),
  ).optional(),
})

/** Instruments of one charge, or in one status. */
export const instrumentListQuerySchema = listQuerySchema.extend({
  charge: filter('The charge (ch_…) whose instruments to list'),
  status: filter('The status of the instruments to list, such as authorized, pending or invalid'),
})

/** Payments of one charge or captured from one instrument. */
export const paymentListQuerySchema = listQuerySchema.extend({
  charge: filter('The charge (ch_…) whose payments to list'),
  instrument: filter('The instrument (in_…) whose payments to list'),
})

/** Refunds of one payment or charge, or in one status. */
export const refundListQuerySchema = listQuerySchema.extend({
  payment: filter('The payment (pa_…) whose refunds to list'),
  charge: filter('The charge (ch_…) whose refunds to list'),
  status: filter('The status of the refunds to list: pending, success or error'),
})

/** Reversals of one instrument or charge. */
export const reversalListQuerySchema = listQuerySchema.extend({
  instrument: filter('The instrument (in_…) whose reversals to list'),
  charge: filter('The charge (ch_…) whose reversals to list'),
})

/** Disputes of one payment or charge, or in one status. */
export const disputeListQuerySchema = listQuerySchema.extend({
  payment: filter('The payment (pa_…) whose disputes to list'),
  charge: filter('The charge (ch_…) whose disputes to list'),
  status: filter('The status of the disputes to list: open, won or lost'),
})
