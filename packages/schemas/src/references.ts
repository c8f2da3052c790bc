import * as z from 'zod/v4'
import { amountSchema } from './amount'
import {
  type OpenEnum,
  openEnum,
  type TransactionStatus,
  transactionStatusSchema,
} from './statuses'

/** The charge a resource derives from, as instruments and payments embed it. */
export const chargeReferenceSchema = z.looseObject({
  id: z.string(),
  charge_type: z.string(),
  charge_type_label: z.string(),
})

/** The charge a resource derives from. */
export interface ChargeReference {
  /** The charge's id. */
  id: string
  /** The payment method, such as `card_onetime`. */
  charge_type: string
  /** `charge_type` for people, such as "Card one-time payment". */
  charge_type_label: string
}

/** The instrument a payment captures. */
export const instrumentReferenceSchema = z.looseObject({
  id: z.string(),
})

/** The instrument a payment captures. */
export interface InstrumentReference {
  /** The instrument's id. */
  id: string
}

/** The latest payment created from an instrument, whatever its outcome. */
export const lastPaymentSchema = z.looseObject({
  id: z.string(),
  success: z.boolean(),
  status: openEnum(transactionStatusSchema),
})

/** The latest payment created from an instrument, whatever its outcome. */
export interface LastPayment {
  /** The payment's id. */
  id: string
  /** Whether the payment went through. */
  success: boolean
  /** `pending`, `success` or `error`. */
  status: OpenEnum<TransactionStatus>
}

/** One refund of a payment, as the payment lists it (failed and pending ones included). */
export const paymentRefundSchema = z.looseObject({
  id: z.string(),
  amount: amountSchema,
  success: z.boolean(),
})

/** One refund of a payment, as the payment lists it. */
export interface PaymentRefund {
  /** The refund's id. */
  id: string
  /** The refunded amount, in the payment's currency. */
  amount: number
  /** Whether the refund went through. */
  success: boolean
}
