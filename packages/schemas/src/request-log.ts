import * as z from 'zod'

/** Who made a request: recorded on charges, instruments, payments and refunds. */
export const requestLogSchema = z.looseObject({
  ip_address: z.string(),
  country: z.string(),
  user_agent: z.string(),
  library_version: z.string().nullable(),
})

export type RequestLog = z.infer<typeof requestLogSchema>
