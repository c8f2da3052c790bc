import * as z from 'zod/v4'

/**
 * A response field whose values are an enum today but may grow: a known value, or any newer
 * string kept as it is rather than refused, so a receiver built against this version keeps
 * reading the service's answers. Typed `Known | (string & {})`: editors still offer the known
 * values, and comparing with one still narrows. Requests use the strict enum instead.
 */
/** A known value of an enum that may grow, or a newer one kept as it came. */
export type OpenEnum<Known extends string> = Known | (string & {})

export function openEnum<Known extends z.ZodEnum>(
  known: Known,
): z.ZodType<z.output<Known> | (string & {})> {
  return z.union([known, z.string()]) as z.ZodType<z.output<Known> | (string & {})>
}

/** `authorized` (usable for payments), `pending` (awaiting the customer, e.g. 3DS), `invalid`. */
export const instrumentStatusSchema = z.enum(['authorized', 'pending', 'invalid'])
export type InstrumentStatus = z.infer<typeof instrumentStatusSchema>

/**
 * Progress of a money movement (payment, refund or reversal), in the words of its events:
 * `pending`, then `success` or `error`.
 */
export const transactionStatusSchema = z.enum(['pending', 'success', 'error'])
export type TransactionStatus = z.infer<typeof transactionStatusSchema>

export const disputeStatusSchema = z.enum(['open', 'won', 'lost'])
export type DisputeStatus = z.infer<typeof disputeStatusSchema>

/**
 * Where an event's delivery to the merchant stands: `none` (not delivered: no `events_url`),
 * `pending` (first attempt due), `delivered`, `failing` (retries go on), `exhausted`.
 */
export const deliveryStatusSchema = z.enum(['none', 'pending', 'delivered', 'failing', 'exhausted'])
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>
