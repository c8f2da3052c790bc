import type { ChargekitClient } from '@chargekit/client'
import type { Database } from './db/open-database.js'
import type { OrderUpdates } from './orders/order-updates.js'
import type { PaymentMethods } from './payments/payment-methods.js'

/** What every part of the shop works with, built once in shop.ts. */
export interface ShopContext {
  db: Database
  /** The private-key client: server side only. */
  client: ChargekitClient
  updates: OrderUpdates
  /** The shop's own origin as customers' browsers reach it: redirect_url derives from it. */
  publicUrl: string
  /** Where the service delivers events: a charge's events_url. */
  eventsUrl: string
  /** What the customer's browser needs to send the card straight to the service. */
  browserCheckout: BrowserCheckout
  /**
   * The service is the sandbox: order pages waiting for the customer offer to play the customer
   * (approve in the app, pay the reference) through the sandbox's test helpers, called by the
   * shop's server with the private key. Never on for a real service.
   */
  customerSimulator: boolean
}

export interface BrowserCheckout {
  /** The account's public key: it may create instruments, never move money. */
  publicKey: string
  /** The service's base URL as browsers reach it. */
  serviceUrl: string
  /** The charge types on offer and the payment forms' fields, from the service's schemas. */
  paymentMethods(): Promise<PaymentMethods>
}
