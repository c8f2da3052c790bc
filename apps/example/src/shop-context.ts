import type { ChargekitClient } from '@chargekit/client'
import type { Database } from './db/database.js'
import type { OrderUpdates } from './orders/order-updates.js'

/** What every part of the shop works with, built once in shop.ts. */
export interface ShopContext {
  db: Database
  client: ChargekitClient
  updates: OrderUpdates
  /** The shop's own origin as the service reaches it: events_url and redirect_url derive from it. */
  publicUrl: string
}
