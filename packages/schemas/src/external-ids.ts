import * as z from 'zod/v4'

/** The processor's references for a money movement (payment, refund, reversal). */
export const transactionExternalIdsSchema = z.looseObject({
  descriptor: z.string(),
  processor: z.string(),
  transaction_id: z.string(),
  transaction_id_trunc: z.string(),
})

/** The processor's references for a money movement (payment, refund, reversal). */
export interface TransactionExternalIds {
  /** The text on the customer's statement. */
  descriptor: string
  /** The processor that moved the money. */
  processor: string
  /** The processor's transaction reference. */
  transaction_id: string
  /** `transaction_id` shortened for systems with short reference fields. */
  transaction_id_trunc: string
}

/** The processor's references for an instrument (authorization). */
export const instrumentExternalIdsSchema = z.looseObject({
  descriptor: z.string(),
  processor: z.string(),
})

/** The processor's references for an instrument (authorization). */
export interface InstrumentExternalIds {
  /** The text on the customer's statement. */
  descriptor: string
  /** The processor that authorized the instrument. */
  processor: string
}
