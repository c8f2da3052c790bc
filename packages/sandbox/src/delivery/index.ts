export { createDeliveryEngine } from './delivery-engine.js'
export type {
  DeliveryAttempt,
  DeliveryEngine,
  DeliveryEngineOptions,
  DeliveryJob,
  DeliveryProgress,
} from './types.js'
