import * as z from 'zod/v4'

/** An error code of the catalogue's form `XX.YY.ZZZZ`. */
export const failureCodeSchema = z
  .string()
  .regex(/^\d{2}\.\d{2}\.\d{4}$/, { error: 'Expected an error code of the form XX.YY.ZZZZ' })

/**
 * The body of a processor decline or failure (HTTP 402), as instrument creation documents it.
 * `metadata` also names the failed object and its parents by id.
 */
export const processorErrorBodySchema = z.looseObject({
  message: z.string(),
  metadata: z.looseObject({
    failure_description: z.string(),
    charge: z.string().optional(),
    instrument: z.string().optional(),
    payment: z.string().optional(),
    refund: z.string().optional(),
    reversal: z.string().optional(),
  }),
  failure_code: failureCodeSchema,
  failure_description: z.string(),
})

/** The body of a processor decline or failure (HTTP 402). */
export interface ProcessorErrorBody {
  /** `Transaction Error`. */
  message: string
  /** The failed object and its parents by id, and the failure's description. */
  metadata: {
    failure_description: string
    charge?: string | undefined
    instrument?: string | undefined
    payment?: string | undefined
    refund?: string | undefined
    reversal?: string | undefined
  }
  /** The catalogue code, `XX.YY.ZZZZ`. */
  failure_code: string
  /** The code's designation, such as "Card is Declined". */
  failure_description: string
}

/** Field path → messages saying what was expected (see `formatZodIssues`). */
export const parametersSchema = z.record(z.string(), z.array(z.string()))

/** The body of a rejected request (HTTP 400, code 01.01.0000). */
export const validationErrorBodySchema = z.looseObject({
  message: z.string(),
  failure_code: z.literal('01.01.0000'),
  failure_description: z.string(),
  parameters: parametersSchema,
})

/** The body of a rejected request (HTTP 400, code 01.01.0000). */
export interface ValidationErrorBody {
  /** What was wrong, for people. */
  message: string
  failure_code: '01.01.0000'
  /** `Invalid Parameters`. */
  failure_description: string
  /** Each bad field's dotted path, and what was expected there. */
  parameters: Record<string, string[]>
}

/** Any error body the service sends: only `message` is always there. */
export const apiErrorBodySchema = z.looseObject({
  message: z.string(),
  failure_code: failureCodeSchema.optional(),
  failure_description: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  parameters: parametersSchema.optional(),
})

/** Any error body the service sends: only `message` is always there. */
export interface ApiErrorBody {
  /** What went wrong, for people. */
  message: string
  /** The catalogue code, `XX.YY.ZZZZ`, when there is one. */
  failure_code?: string | undefined
  /** The code's designation. */
  failure_description?: string | undefined
  /** The objects concerned, by kind, and other details. */
  metadata?: Record<string, unknown> | undefined
  /** Each bad field's dotted path, and what was expected there (a 400). */
  parameters?: Record<string, string[]> | undefined
}
