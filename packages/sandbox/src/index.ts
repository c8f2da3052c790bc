export type { RateLimitOptions, SandboxAccountOptions } from './accounts/account-options'
export { defaultAccount } from './accounts/account-options'
export type { SandboxAccount } from './accounts/accounts'
export { SandboxError } from './errors'
export type { SandboxLogger } from './logger'
export { consoleLogger, quietLogger } from './logger'
export { noProcessor } from './processors/no-processor'
export type {
  AuthorizeRequest,
  AwaitingCustomerOutcome,
  AwaitingProcessorOutcome,
  CaptureRequest,
  CardInput,
  ChallengeRequest,
  ChargeStepRequest,
  FailedOutcome,
  FinalOutcome,
  Money,
  Outcome,
  PendingOutcome,
  Processor,
  ProcessorContext,
  RefundRequest,
  ReverseRequest,
  SucceededOutcome,
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
export { createMemoryStore } from './storage/memory-store'
export type {
  ChallengeRecord,
  EventFilter,
  EventUpdate,
  ObjectFilter,
  ObjectKind,
  ObjectKinds,
  PageRequest,
  PageResult,
  StoredEvent,
} from './storage/records'
export type { SandboxStore } from './storage/sandbox-store'
