import * as z from 'zod/v4'
import { eventTypeSchema } from './event-types'
import { describedField } from './field-descriptions'
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
  type: describedField(
    'The types of the events to list, such as payment.success',
    z.union([eventTypeSchema, z.array(eventTypeSchema)], {
      error: 'Expected a known event type such as "payment.success", or a list of them',
    }),
  ).optional(),
  charge: describedField('The charge (ch_…) whose events to list', z.string()).optional(),
  object_id: describedField(
    'The id of the object whose events to list: a charge, an instrument, a payment…',
    z.string(),
  ).optional(),
  metadata: describedField(
    'The metadata values the charge of the events to list has, every one of them',
    z.record(z.string(), z.string()),
  ).optional(),
  created_gte: describedField(
    'The earliest creation time of the events to list, ISO 8601 with a time zone offset or Z, such as 2026-01-31T12:00:00Z',
    timestampSchema,
  ).optional(),
  created_lte: describedField(
    'The latest creation time of the events to list, ISO 8601 with a time zone offset or Z, such as 2026-01-31T12:00:00Z',
    timestampSchema,
  ).optional(),
  dismissed: describedField(
    'true or false: list only the dismissed events (true) or only the others (false)',
    queryBooleanSchema,
  ).optional(),
  result_status: queryIntegerSchema(
    describedField(
      'The HTTP status the latest delivery attempt of the events to list got, from 0 to 599 (0: no answer)',
      resultStatusSchema,
    ),
  ).optional(),
  delivery_status: describedField(
    'Where the delivery of the events to list stands: pending, delivered, failing, exhausted or none',
    deliveryStatusSchema,
  ).optional(),
})

/**
 * `events.stream` (a sandbox endpoint): which events the stream sends, and where it starts when
 * it resumes no earlier stream (`Last-Event-ID`): from `created_gte`, else from now.
 */
export const eventStreamQuerySchema = z.object({
  type: describedField(
    'The types of the events to send, such as payment.success',
    eventListQuerySchema.shape.type.unwrap(),
  ).optional(),
  created_gte: describedField(
    'Without Last-Event-ID: the earliest creation time of the events to send first, ISO 8601 with a time zone offset or Z, such as 2026-01-31T12:00:00Z (default: now)',
    timestampSchema,
  ).optional(),
})

export type EventStreamQuery = z.infer<typeof eventStreamQuerySchema>
export type EventStreamQueryInput = z.input<typeof eventStreamQuerySchema>

export type EventListQuery = z.infer<typeof eventListQuerySchema>
export type EventListQueryInput = z.input<typeof eventListQuerySchema>
