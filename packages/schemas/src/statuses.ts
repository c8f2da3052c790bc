import * as z from 'zod'

/** `authorized` (usable for payments), `pending` (awaiting the customer, e.g. 3DS), `invalid`. */
export const instrumentStatusSchema = z.enum(['authorized', 'pending', 'invalid'])
export type InstrumentStatus = z.infer<typeof instrumentStatusSchema>

/** Progress of a money movement: payment, refund or reversal. */
export const transactionStatusSchema = z.enum(['pending', 'succeeded', 'failed'])
export type TransactionStatus = z.infer<typeof transactionStatusSchema>

export const disputeStatusSchema = z.enum(['open', 'won', 'lost'])
export type DisputeStatus = z.infer<typeof disputeStatusSchema>

/** Where an event's delivery to the merchant stands (DESIGN §6). */
export const deliveryStatusSchema = z.enum(['none', 'pending', 'delivered', 'failing', 'exhausted'])
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>
