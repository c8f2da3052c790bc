import * as z from 'zod/v4'
import { type OpenEnum, openEnum } from './statuses'
import { timestampSchema } from './timestamp'

/** What the sandbox read leniently in a request, one code per lenience. */
export const integrationWarningCodeSchema = z.enum([
  'trailing_slash',
  'json_with_other_content_type',
  'form_body',
  'numeric_string',
  'boolean_string',
  'unknown_field',
  'null_as_absent',
  'string_metadata',
  'float_amount',
])
export type IntegrationWarningCode = z.infer<typeof integrationWarningCodeSchema>

/** Something the production service accepts that a careful client would send otherwise. */
export const integrationWarningSchema = z.looseObject({
  code: openEnum(integrationWarningCodeSchema),
  field: z.string().optional(),
  message: z.string(),
  instead: z.string(),
})

/** Something the production service accepts that a careful client would send otherwise. */
export interface IntegrationWarning {
  /** Which lenience: `unknown_field`, `numeric_string`, `trailing_slash`… */
  code: OpenEnum<IntegrationWarningCode>
  /** The field it is about as a dotted path (`instrument_params.enable3ds`), if any. */
  field?: string | undefined
  /** What the sandbox read, and how. */
  message: string
  /** What to send instead. */
  instead: string
}

/**
 * One API request as the sandbox recorded it (`testHelpers.listRequests`, a sandbox endpoint): never
 * headers or bodies, so no credentials and no card data.
 */
export const recordedRequestSchema = z.looseObject({
  id: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.int(),
  created_at: timestampSchema,
  duration_ms: z.number(),
  warnings: z.array(integrationWarningSchema),
  warnings_omitted: z.int(),
})

/** One API request as the sandbox recorded it, with its integration warnings. */
export interface RecordedRequest {
  /** The answer's `Request-Id`. */
  id: string
  /** The HTTP method. */
  method: string
  /** The path as sent (a trailing slash included), without the query. */
  path: string
  /** The answer's HTTP status. */
  status: number
  /** When the request arrived. */
  created_at: string
  /** How long the answer took, in milliseconds. */
  duration_ms: number
  /** What the sandbox read leniently. */
  warnings: IntegrationWarning[]
  /** Warnings beyond the listed ones, only counted. */
  warnings_omitted: number
}
