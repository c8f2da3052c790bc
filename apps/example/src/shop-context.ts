import type { ChargekitClient } from '@chargekit/client'
import type { Database } from './db/database.js'
import type { OrderUpdates } from './orders/order-updates.js'
import type { CardField } from './payments/card-fields.js'

/** What every part of the shop works with, built once in shop.ts. */
export interface ShopContext {
  db: Database
  /** The private-key client: server side only. */
  client: ChargekitClient
  updates: OrderUpdates
  /** The shop's own origin as the service reaches it: events_url and redirect_url derive from it. */
  publicUrl: string
  /** What the customer's browser needs to send the card straight to the service. */
  browserCheckout: BrowserCheckout
}

export interface BrowserCheckout {
  /** The account's public key: it may create instruments, never move money. */
  publicKey: string
  /** The service's base URL as browsers reach it. */
  serviceUrl: string
  /** The card form's fields, from the service's instrument schema. */
  cardFields(): Promise<CardField[]>
}
