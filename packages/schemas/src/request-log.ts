import * as z from 'zod/v4'

/** Who made a request: recorded on charges, instruments, payments and refunds. */
export const requestLogSchema = z.looseObject({
  ip_address: z.string(),
  country: z.string(),
  user_agent: z.string(),
  library_version: z.string().nullable(),
})

/** Who made a request: recorded on charges, instruments, payments and refunds. */
export interface RequestLog {
  /** The client's IP address. */
  ip_address: string
  /** The client's country, as far as the service can tell (may be empty). */
  country: string
  /** The client's `User-Agent`. */
  user_agent: string
  /** The version of the service library that made the request, when one did. */
  library_version: string | null
}
