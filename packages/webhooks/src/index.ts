// The types handlers receive, and the registry that types `charge.metadata` in them.
export type {
  ChargeMetadata,
  CompactEvent,
  Event,
  EventOf,
  EventType,
  Register,
} from '@chargekit/schemas'
export type { Webhooks } from './create-webhooks'
export { createWebhooks } from './create-webhooks'
export type { ClaimResult, DeliveryStore } from './delivery-store'
export type { DeliveryRef, WebhooksErrorCode, WebhooksErrorOptions } from './errors'
export { WebhooksError } from './errors'
export type { HeaderSource } from './headers'
export type { MemoryDeliveryStoreOptions } from './memory-delivery-store'
export { createMemoryDeliveryStore } from './memory-delivery-store'
export type { NodeRequest } from './node-body'
export type {
  DeliveryHandler,
  FastifyLikeReply,
  FastifyLikeRequest,
  NodeMiddleware,
  NodeMiddlewareOptions,
  NodeResponse,
} from './node-middleware'
export { createNodeMiddleware } from './node-middleware'
export type { SignDeliveryOptions, SignedDelivery } from './sign-delivery'
export { signDelivery } from './sign-delivery'
export type { SignatureVerifier, SignatureVerifierOptions, WebhookSecret } from './signature'
export { createSignatureVerifier } from './signature'
export type { SqlDeliveryStore, SqlDeliveryStoreOptions, SqlQuery } from './sql-delivery-store'
export { createSqlDeliveryStore } from './sql-delivery-store'
export type {
  DeliveryResponse,
  ErrorHandler,
  EventHandler,
  HandlerContext,
  IncomingDelivery,
  ReceiveResult,
  ReceiveStatus,
  WebhooksClient,
  WebhooksOptions,
} from './types'
