import * as z from 'zod'
import { timestampSchema } from './timestamp'

/** The HTTP status of a delivery attempt; 0 means no response (refused, timed out). */
export const resultStatusSchema = z.int().min(0).max(599)

/** One delivery retry of an event (an entry of `retries_log`, which lists them newest first). */
export const retryLogEntrySchema = z.looseObject({
  created_at: timestampSchema,
  result_status: resultStatusSchema,
})

export type RetryLogEntry = z.infer<typeof retryLogEntrySchema>
