export {
  amountSchema,
  compareAmounts,
  fromMinorUnits,
  maxAmount,
  nonNegativeAmountSchema,
  toMinorUnits,
  withoutFloatNoise,
} from './amount'
export { AmountError } from './amount-error'
export type { CardBrand, CardParams, CardType } from './card-params'
export { cardBrandSchema, cardParamsSchema, cardTypeSchema } from './card-params'
export type { Channel } from './channel'
export { channelSchema } from './channel'
export type { Charge, InstrumentParams, PublicCharge } from './charge'
export {
  chargeSchema,
  instrumentParamsSchema,
  publicChargeFields,
  publicChargeSchema,
} from './charge'
export type { CreateChargeRequest } from './charge-request'
export {
  createChargeRequestSchema,
  createChargeRequestSchemaFor,
  redirectUrlSchema,
} from './charge-request'
export type { ChargeTypeInfo, ChargeTypeList } from './charge-types'
export { chargeTypeInfoSchema, chargeTypeListSchema } from './charge-types'
export type { CompactEvent, CompactEventSource, DeliveryPayload } from './compact-event'
export { compactEventSchema, deliveryPayloadSchema, toCompactEvent } from './compact-event'
export { compiledCheck } from './compiled-schema'
export { currencySchema } from './currency'
export { currencyMinorDigits, isAmountInMinorUnits, isKnownCurrency } from './currency-codes'
export {
  deliveredEventIdSchema,
  deliveredEventTypeSchema,
  deliveryQueryParameters,
  deliveryUrl,
} from './delivery'
export type { Dispute } from './dispute'
export { disputeSchema } from './dispute'
export type { CreateDisputeRequest, SettleDisputeRequest } from './dispute-requests'
export { createDisputeRequestSchema, settleDisputeRequestSchema } from './dispute-requests'
export type { ApiErrorBody, ProcessorErrorBody, ValidationErrorBody } from './error-bodies'
export {
  apiErrorBodySchema,
  failureCodeSchema,
  parametersSchema,
  processorErrorBodySchema,
  validationErrorBodySchema,
} from './error-bodies'
export type {
  ChargeEvent,
  DisputeEvent,
  Event,
  EventOf,
  EventTypesOf,
  GenericEvent,
  InstrumentEvent,
  KnownEvent,
  PaymentEvent,
  RefundEvent,
  ReversalEvent,
  UnknownEvent,
  UnknownEventType,
} from './event'
export { eventSchema, knownEventSchemas } from './event'
export { isEventOfType, isKnownEvent } from './event-guards'
export type {
  EventListQuery,
  EventListQueryInput,
  EventStreamQuery,
  EventStreamQueryInput,
} from './event-list-query'
export { eventListQuerySchema, eventStreamQuerySchema } from './event-list-query'
export type { EventObjectKind } from './event-objects'
export { eventObjectKinds } from './event-objects'
export type { EventFamily, EventFamilyOf, EventType, EventTypeInfo } from './event-types'
export {
  eventTypeLabel,
  eventTypeList,
  eventTypeSchema,
  eventTypes,
  isEventType,
} from './event-types'
export type { EventsUrlOptions } from './events-url'
export { createEventsUrlSchema, eventsUrlSchema } from './events-url'
export type { InstrumentExternalIds, TransactionExternalIds } from './external-ids'
export { instrumentExternalIdsSchema, transactionExternalIdsSchema } from './external-ids'
export {
  describedField,
  expectedField,
  fieldDescription,
  wrappedSchema,
} from './field-descriptions'
export { formatIssuePath, formatZodIssues, rootIssueKey } from './format-zod-issues'
export { idempotencyKeyRule, isIdempotencyKey } from './idempotency-key'
export type { Instrument } from './instrument'
export { instrumentSchema, redirectMethodSchema } from './instrument'
export type {
  ChargeOnlyInstrumentRequest,
  CreateInstrumentRequest,
  InstrumentCreateParams,
  MbwayInstrumentRequest,
} from './instrument-request'
export {
  cardDetailsSchema,
  chargeOnlyInstrumentRequestSchema,
  createInstrumentRequestSchema,
  instrumentChargeField,
  mbwayDetailsSchema,
  mbwayInstrumentRequestSchema,
} from './instrument-request'
export type { ListEnvelope, Pagination } from './list-envelope'
export { listEnvelopeSchema, paginationSchema } from './list-envelope'
export type { ListQuery, ListQueryInput } from './list-query'
export {
  chargeListQuerySchema,
  disputeListQuerySchema,
  instrumentListQuerySchema,
  listQuerySchema,
  maxPerPage,
  paymentListQuerySchema,
  refundListQuerySchema,
  reversalListQuerySchema,
} from './list-query'
export type {
  ChargeMetadata,
  ChargeMetadataParam,
  Metadata,
  Register,
  RequestMetadata,
} from './metadata'
export {
  chargeMetadataSchema,
  chargeRequestMetadataSchema,
  metadataLimits,
  metadataSchema,
  requestMetadataSchema,
} from './metadata'
export type { OperationSchema } from './operation-schemas'
export { operationSchemas } from './operation-schemas'
export type { OptionProblem, OptionsReading } from './option-problem'
export { readOptions } from './option-problem'
export type { SafeParseEventResult } from './parse-event'
export { parseEvent, safeParseEvent } from './parse-event'
export type { Payment } from './payment'
export { paymentSchema } from './payment'
export type { CreatePaymentRequest } from './payment-request'
export { createPaymentRequestSchema } from './payment-request'
export type {
  IntegrationWarning,
  IntegrationWarningCode,
  RecordedRequest,
} from './recorded-request'
export { integrationWarningSchema, recordedRequestSchema } from './recorded-request'
export type {
  ChargeReference,
  InstrumentReference,
  LastPayment,
  PaymentRefund,
} from './references'
export {
  chargeReferenceSchema,
  instrumentReferenceSchema,
  lastPaymentSchema,
  paymentRefundSchema,
} from './references'
export type { Refund } from './refund'
export { refundSchema } from './refund'
export type { CreateRefundOfPaymentRequest, CreateRefundRequest } from './refund-request'
export { createRefundOfPaymentRequestSchema, createRefundRequestSchema } from './refund-request'
export type { RequestLog } from './request-log'
export { requestLogSchema } from './request-log'
export { requestTextLimits } from './request-text'
export type { RetryLogEntry } from './retry-log-entry'
export { resultStatusSchema, retryLogEntrySchema } from './retry-log-entry'
export type { Reversal } from './reversal'
export { reversalSchema } from './reversal'
export type { CreateReversalRequest } from './reversal-request'
export { createReversalRequestSchema } from './reversal-request'
export { SchemaValidationError } from './schema-validation-error'
export type { Settlement, SettlementTotal } from './settlement'
export { settlementSchema } from './settlement'
export type { SigningSecret } from './signing-secret'
export { signingSecretSchema } from './signing-secret'
export type { DeliveryStatus, DisputeStatus, InstrumentStatus, TransactionStatus } from './statuses'
export {
  deliveryStatusSchema,
  disputeStatusSchema,
  instrumentStatusSchema,
  openEnum,
  transactionStatusSchema,
} from './statuses'
export { timestampSchema } from './timestamp'
