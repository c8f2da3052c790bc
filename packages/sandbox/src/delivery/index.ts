export { accountScopedKey } from './account-scoped-key'
export type { DeliveryAttemptLog, LoggedAttempt, ReceiverRecord } from './attempt-log'
export { createDeliveryAttemptLog } from './attempt-log'
export { createDeliveryEngine } from './delivery-engine'
export type { EventDelivery } from './event-delivery'
export { createEventDelivery } from './event-delivery'
export type {
  AttemptKind,
  DeliveryAttempt,
  DeliveryEngine,
  DeliveryEngineOptions,
  DeliveryJob,
  DeliveryProgress,
} from './types'
