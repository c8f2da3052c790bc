import * as z from 'zod'

/** POST /v2/instruments body: card data for the charge `charge`. */
export const createInstrumentRequestSchema = z.object({
  charge: z.string().min(1, { error: 'Expected the id of the charge, such as "ch_…"' }),
  name: z.string().min(1, { error: "Expected the cardholder's name" }),
  // Luhn is not checked: test numbers often fail it and the processor is the authority.
  number: z.string().regex(/^\d{12,19}$/, { error: 'Expected 12 to 19 digits, without spaces' }),
  expiration_month: z.int().min(1, { error: 'Expected a month from 1 to 12' }).max(12, {
    error: 'Expected a month from 1 to 12',
  }),
  expiration_year: z.int().min(2000, { error: 'Expected a four-digit year' }).max(2099, {
    error: 'Expected a four-digit year',
  }),
  cvc: z.string().regex(/^\d{3,4}$/, { error: 'Expected 3 or 4 digits' }),
})

export type CreateInstrumentRequest = z.infer<typeof createInstrumentRequestSchema>
