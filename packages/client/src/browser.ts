// @chargekit/client/browser: the public-key client for a customer's browser. Only types come
// from @chargekit/schemas (and the zod-free Idempotency-Key rule), so zod stays out of the page.
export type {
  Charge,
  ChargeOnlyInstrumentRequest,
  ChargeTypeInfo,
  CreateChargeRequest,
  CreateInstrumentRequest,
  Instrument,
  InstrumentCreateParams,
  MbwayInstrumentRequest,
  PublicCharge,
  Register,
} from '@chargekit/schemas'
export type { ApiPromise, ApiResponse } from './api-promise'
export type {
  BrowserClient,
  BrowserClientOptions,
  BrowserRequestOptions,
} from './browser-client'
export { createBrowserClient } from './browser-client'
export type { FetchLike } from './client-options'
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
  ServerError,
  TimeoutError,
  ValidationError,
} from './errors'
