import * as z from 'zod'

/** The processor's references for a money movement (payment, refund, reversal). */
export const transactionExternalIdsSchema = z.looseObject({
  descriptor: z.string(),
  processor: z.string(),
  transaction_id: z.string(),
  transaction_id_trunc: z.string(),
})

export type TransactionExternalIds = z.infer<typeof transactionExternalIdsSchema>

/** The processor's references for an instrument (authorization). */
export const instrumentExternalIdsSchema = z.looseObject({
  descriptor: z.string(),
  processor: z.string(),
})

export type InstrumentExternalIds = z.infer<typeof instrumentExternalIdsSchema>
