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

/**
 * `events.stream` (a sandbox endpoint): which events the stream sends, and where it starts when
 * it resumes no earlier stream (`Last-Event-ID`): from `created_gte`, else from now.
 */
export const eventStreamQuerySchema = z.object({
  type: eventListQuerySchema.shape.type,
  created_gte: timestampSchema.optional(),
})

export type EventStreamQuery = z.infer<typeof eventStreamQuerySchema>
export type EventStreamQueryInput = z.input<typeof eventStreamQuerySchema>

export type EventListQuery = z.infer<typeof eventListQuerySchema>
export type EventListQueryInput = z.input<typeof eventListQuerySchema>
