import * as z from 'zod/v4'
import { challengeFormSchema, challengePageQuerySchema } from './challenge-page'
import { chargeSchema, publicChargeSchema } from './charge'
import { createChargeRequestSchema } from './charge-request'
import { chargeTypeListSchema } from './charge-types'
import { disputeSchema } from './dispute'
import { createDisputeRequestSchema, settleDisputeRequestSchema } from './dispute-requests'
import { eventSchema } from './event'
import { eventListQuerySchema } from './event-list-query'
import { instrumentSchema } from './instrument'
import {
  chargeOnlyInstrumentRequestSchema,
  createInstrumentRequestSchema,
  mbwayInstrumentRequestSchema,
} from './instrument-request'
import {
  chargeListQuerySchema,
  disputeListQuerySchema,
  instrumentListQuerySchema,
  listQuerySchema,
  paymentListQuerySchema,
  refundListQuerySchema,
  reversalListQuerySchema,
} from './list-query'
import type { SchemaName } from './operation'
import { paymentSchema } from './payment'
import { createPaymentRequestSchema } from './payment-request'
import { recordedRequestSchema } from './recorded-request'
import { refundSchema } from './refund'
import { createRefundOfPaymentRequestSchema, createRefundRequestSchema } from './refund-request'
import { reversalSchema } from './reversal'
import { createReversalRequestSchema } from './reversal-request'
import { settlementSchema } from './settlement'

/**
 * The zod schema of every body and query the operation table names. Request schemas are the
 * service's rules as published (the sandbox may add an account's own: its channels, a
 * processor's instrument fields); response schemas are the loose ones the client checks with.
 */
export const operationSchemas = {
  Charge: chargeSchema,
  PublicCharge: publicChargeSchema,
  ChargeTypeList: chargeTypeListSchema,
  CreateChargeRequest: createChargeRequestSchema,
  Instrument: instrumentSchema,
  // By charge type: a card, an MB WAY phone number, or only the charge (a payment reference,
  // PayPal). The sandbox holds each to its processor's own schema.
  CreateInstrumentRequest: z.union([
    createInstrumentRequestSchema,
    mbwayInstrumentRequestSchema,
    chargeOnlyInstrumentRequestSchema,
  ]),
  CreateReversalRequest: createReversalRequestSchema,
  Reversal: reversalSchema,
  Payment: paymentSchema,
  CreatePaymentRequest: createPaymentRequestSchema,
  CreateRefundRequest: createRefundRequestSchema,
  CreateRefundOfPaymentRequest: createRefundOfPaymentRequestSchema,
  Refund: refundSchema,
  Dispute: disputeSchema,
  CreateDisputeRequest: createDisputeRequestSchema,
  SettleDisputeRequest: settleDisputeRequestSchema,
  Settlement: settlementSchema,
  Event: eventSchema,
  RecordedRequest: recordedRequestSchema,
  ChargeListQuery: chargeListQuerySchema,
  InstrumentListQuery: instrumentListQuerySchema,
  PaymentListQuery: paymentListQuerySchema,
  RefundListQuery: refundListQuerySchema,
  ReversalListQuery: reversalListQuerySchema,
  DisputeListQuery: disputeListQuerySchema,
  EventListQuery: eventListQuerySchema,
  ListQuery: listQuerySchema,
  ChallengePageQuery: challengePageQuerySchema,
  ChallengeForm: challengeFormSchema,
} as const satisfies Record<SchemaName, z.ZodType>

/** The zod schema the table names `name`. */
export type OperationSchema<Name extends SchemaName> = (typeof operationSchemas)[Name]
