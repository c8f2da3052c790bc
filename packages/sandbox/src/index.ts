export type { RateLimitOptions, SandboxAccountOptions } from './accounts/account-options'
export { defaultAccount } from './accounts/account-options'
export type { SandboxAccount } from './accounts/accounts'
export { card, cardOnetime, cardRecurring } from './card/card-charge-types'
export type { TestCard } from './card/test-cards'
export { testCards } from './card/test-cards'
export type { SandboxClock } from './clock'
export { systemClock } from './clock'
export { SandboxError } from './errors'
export type { ConnectionLimits } from './http/connection-limits'
export { limitConnections } from './http/connection-limits'
export type { SandboxLogger } from './logger'
export { consoleLogger, jsonLogger, quietLogger } from './logger'
export type { ChargeType, InstrumentDetailsContext } from './processors/charge-type'
export { defineChargeType } from './processors/charge-type'
export { mbway, mbwayProcessor } from './processors/mbway'
export { multibanco, multibancoProcessor } from './processors/multibanco'
export { noProcessor } from './processors/no-processor'
export type {
  AwaitingCustomerOutcome,
  AwaitingProcessorOutcome,
  CustomerAction,
  FailedOutcome,
  FinalOutcome,
  Outcome,
  PendingOutcome,
  SucceededOutcome,
} from './processors/outcome'
export { paypal, paypalProcessor } from './processors/paypal'
export { payshopProcessor, payshopReference } from './processors/payshop'
export type {
  AuthorizeRequest,
  CaptureRequest,
  CardInput,
  ChallengeRequest,
  ChargeStepRequest,
  Money,
  Processor,
  ProcessorContext,
  RefundRequest,
  ReverseRequest,
} from './processors/processor'
export { builtInProcessors } from './processors/processor-registry'
export { simulatedAcquirer } from './processors/simulated-acquirer'
export type { Sandbox, StartSandboxOptions } from './start-sandbox'
export { startSandbox } from './start-sandbox'
export type {
  IdempotencyRecords,
  IdempotentAnswer,
  Reservation,
} from './storage/idempotency-records'
export type { MemoryStoreOptions } from './storage/memory-store'
export { createMemoryStore } from './storage/memory-store'
export type {
  ChallengeRecord,
  EventFilter,
  EventUpdate,
  InstrumentRecord,
  ObjectFilter,
  ObjectKind,
  ObjectKinds,
  PageRequest,
  PageResult,
  PaymentRecord,
  RefundRecord,
  StoredEvent,
} from './storage/records'
export type { SandboxStore } from './storage/sandbox-store'
export type {
  PostgresOptions,
  SqlConnection,
  SqlExecutor,
  SqlParam,
} from './storage/sql/sql-connection'
export { connectPglite, connectPostgres } from './storage/sql/sql-connection'
