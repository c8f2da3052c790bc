export { accountScopedKey } from './account-scoped-key'
export { createDeliveryEngine } from './delivery-engine'
export type {
  AttemptKind,
  DeliveryAttempt,
  DeliveryEngine,
  DeliveryEngineOptions,
  DeliveryJob,
  DeliveryProgress,
} from './types'
