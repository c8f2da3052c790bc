import * as z from 'zod/v4'
import { eventTypeSchema } from './event-types'
import { listQuerySchema } from './list-query'
import { queryIntegerSchema } from './query-integer'
import { resultStatusSchema } from './retry-log-entry'
import { deliveryStatusSchema } from './statuses'
import { timestampSchema } from './timestamp'

// URL queries carry booleans as text.
const queryBooleanSchema = z.union(
  [z.boolean(), z.enum(['true', 'false']).transform((text) => text === 'true')],
  { error: 'Expected true or false' },
)

/** `events.list` filters, all combined with AND; `type` may repeat (any of them). */
export const eventListQuerySchema = listQuerySchema.extend({
  type: z
    .union([eventTypeSchema, z.array(eventTypeSchema)], {
      error: 'Expected a known event type such as "payment.success", or a list of them',
    })
    .optional(),
  charge: z.string().optional(),
  object_id: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  created_gte: timestampSchema.optional(),
  created_lte: timestampSchema.optional(),
  dismissed: queryBooleanSchema.optional(),
  result_status: queryIntegerSchema(resultStatusSchema).optional(),
  delivery_status: deliveryStatusSchema.optional(),
})

export type EventListQuery = z.infer<typeof eventListQuerySchema>
export type EventListQueryInput = z.input<typeof eventListQuerySchema>
