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

export type ProcessorErrorBody = z.infer<typeof processorErrorBodySchema>

/** Field path → messages saying what was expected (see `formatZodIssues`). */
export const parametersSchema = z.record(z.string(), z.array(z.string()))

/** The body of a rejected request (HTTP 400, code 01.01.0000). */
export const validationErrorBodySchema = z.looseObject({
  message: z.string(),
  failure_code: z.literal('01.01.0000'),
  failure_description: z.string(),
  parameters: parametersSchema,
})

export type ValidationErrorBody = z.infer<typeof validationErrorBodySchema>

/** Any error body the service sends: only `message` is always there. */
export const apiErrorBodySchema = z.looseObject({
  message: z.string(),
  failure_code: failureCodeSchema.optional(),
  failure_description: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  parameters: parametersSchema.optional(),
})

export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>
