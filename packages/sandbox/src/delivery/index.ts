export { accountScopedKey } from './account-scoped-key'
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
