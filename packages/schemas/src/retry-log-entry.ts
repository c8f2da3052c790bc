import * as z from 'zod/v4'
import { timestampSchema } from './timestamp'

/** The HTTP status of a delivery attempt; 0 means no response (refused, timed out). */
export const resultStatusSchema = z.int().min(0).max(599)

/** One delivery retry of an event (an entry of `retries_log`, which lists them newest first). */
export const retryLogEntrySchema = z.looseObject({
  created_at: timestampSchema,
  result_status: resultStatusSchema,
})

/** One delivery retry of an event. */
export interface RetryLogEntry {
  /** When the retry was made. */
  created_at: string
  /** The HTTP status it got; 0 when there was no response (refused, timed out). */
  result_status: number
}
