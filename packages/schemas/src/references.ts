import * as z from 'zod'
import { amountSchema } from './amount'
import { openEnum, transactionStatusSchema } from './statuses'

/** The charge a resource derives from, as instruments and payments embed it. */
export const chargeReferenceSchema = z.looseObject({
  id: z.string(),
  charge_type: z.string(),
  charge_type_label: z.string(),
})

export type ChargeReference = z.infer<typeof chargeReferenceSchema>

/** The instrument a payment captures. */
export const instrumentReferenceSchema = z.looseObject({
  id: z.string(),
})

export type InstrumentReference = z.infer<typeof instrumentReferenceSchema>

/** The latest payment created from an instrument, whatever its outcome. */
export const lastPaymentSchema = z.looseObject({
  id: z.string(),
  success: z.boolean(),
  status: openEnum(transactionStatusSchema),
})

export type LastPayment = z.infer<typeof lastPaymentSchema>

/** One refund of a payment, as the payment lists it (failed and pending ones included). */
export const paymentRefundSchema = z.looseObject({
  id: z.string(),
  amount: amountSchema,
  success: z.boolean(),
})

export type PaymentRefund = z.infer<typeof paymentRefundSchema>
