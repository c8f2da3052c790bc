// The resource types, so callers of the client need no second import for them.
export type {
  Charge,
  ChargeMetadata,
  ChargeOnlyInstrumentRequest,
  ChargeTypeInfo,
  CreateChargeRequest,
  CreateDisputeRequest,
  CreateInstrumentRequest,
  CreatePaymentRequest,
  CreateRefundOfPaymentRequest,
  CreateRefundRequest,
  CreateReversalRequest,
  Dispute,
  Event,
  EventOf,
  EventType,
  Instrument,
  InstrumentCreateParams,
  ListEnvelope,
  MbwayInstrumentRequest,
  Pagination,
  Payment,
  RecordedRequest,
  Refund,
  Register,
  Reversal,
  SettleDisputeRequest,
  Settlement,
  SigningSecret,
} from '@chargekit/schemas'
export type { ApiPromise, ApiResponse } from './api-promise'
export type { ChargekitClient } from './client'
export { createClient } from './client'
export type { ClientOptions, FetchLike, RequestOptions } from './client-options'
export type { ApiErrorDetails, DeclinedElement } from './errors'
export {
  AbortError,
  ApiError,
  AuthenticationError,
  ChargekitError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PaymentError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
} from './errors'
export type { ClientLogEntry, ClientLogger } from './logger'
export type { ToArrayOptions } from './pagination'
export { Page, PagePromise } from './pagination'
export type { QueryValue } from './query-string'
export type { RawRequest } from './raw-request'
export type { ChargesResource } from './resources/charges'
export type { DisputesResource } from './resources/disputes'
export type { EventStreamOptions, EventStreamParams } from './resources/event-stream'
export type { EventsResource } from './resources/events'
export type { InstrumentsResource } from './resources/instruments'
export type {
  ChargeListParams,
  DisputeListParams,
  EventListParams,
  InstrumentListParams,
  ListParams,
  PaymentListParams,
  RefundListParams,
  ReversalListParams,
} from './resources/list-params'
export type { PaymentsResource } from './resources/payments'
export type { RefundsResource } from './resources/refunds'
export type { ReversalsResource } from './resources/reversals'
export type { SettlementsResource } from './resources/settlements'
export type { TestHelpersResource } from './resources/test-helpers'
export type { BackoffOptions } from './retry-policy'
export { VERSION } from './version'
