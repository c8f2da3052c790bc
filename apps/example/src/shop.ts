import type { Server } from 'node:http'
import type { ChargekitClient } from '@chargekit/client'
import { type ConnectionLimits, limitConnections } from '@chargekit/sandbox'
import { createAdaptorServer } from '@hono/node-server'
import type { Database } from './db/open-database.js'
import { createShopApp } from './http/app.js'
import { listen, urlHost } from './listen.js'
import { createOrderUpdates } from './orders/order-updates.js'
import { paymentMethodSource } from './payments/payment-methods.js'
import { startOnPortOrFree } from './port-fallback.js'

export interface ShopOptions {
  client: ChargekitClient
  database: Database
  /** Default 127.0.0.1: the shop is a local example, not meant to face a network. */
  host?: string
  /** Default 0 (any free port); a taken port falls back to a free one. */
  port?: number
  /** How customers' browsers reach the shop (redirect_url); default its listening URL. */
  publicUrl?: string
  /**
   * Where the service delivers events; default `${publicUrl}/webhooks`. Another name when the
   * service reaches the shop otherwise than browsers do (`http://shop:3000/webhooks` in compose).
   */
  eventsUrl?: string
  /**
   * What the customer's browser sends the card with: the account's public key and the service's
   * base URL as browsers reach it (the pages' CSP lets scripts call its origin).
   */
  browserCheckout: { publicKey: string; serviceUrl: string }
  dashboardUrl?: string
  /**
   * The service is the sandbox: order pages waiting for the customer get a "simulate the
   * customer" panel calling its test helpers from the server. Default false.
   */
  customerSimulator?: boolean
  log?: (message: string) => void
  /**
   * Header and request time-outs and the connection caps, overall and per client address, kept
   * as the sandbox keeps its own. Default 5 s, 30 s, 1,000 connections, 256 from one address.
   */
  connections?: ConnectionLimits
}

export interface Shop {
  /** The listening URL, e.g. http://127.0.0.1:3000 */
  url: string
  /** How customers' browsers reach the shop (redirect_url). */
  publicUrl: string
  /** Where the service delivers events (events_url). */
  eventsUrl: string
  /** Stops accepting requests, ends live streams and open connections; leaves the database open. */
  close(): Promise<void>
}

export async function startShop(options: ShopOptions): Promise<Shop> {
  const log = options.log ?? ((message: string) => console.error(message))
  const host = options.host ?? '127.0.0.1'
  const shutdown = new AbortController()
  let handle: (request: Request) => Response | Promise<Response> = () =>
    new Response('Starting', { status: 503 })
  const connections = limitConnections(options.connections)
  const server = createAdaptorServer({
    fetch: (request) => handle(request),
    serverOptions: connections.serverOptions,
  }) as Server
  connections.guard(server)
  const port = await startOnPortOrFree(
    options.port ?? 0,
    (port) => listen(server, port, host),
    (free) => log(`Port ${options.port} is taken; the shop listens on ${free} instead.`),
  )
  const url = `http://${urlHost(host)}:${port}`
  const publicUrl = (options.publicUrl ?? url).replace(/\/+$/, '')
  const eventsUrl = options.eventsUrl ?? `${publicUrl}/webhooks`
  const browserCheckout = {
    ...options.browserCheckout,
    paymentMethods: paymentMethodSource(options.client),
  }
  const app = createShopApp(
    {
      db: options.database,
      client: options.client,
      updates: createOrderUpdates(),
      publicUrl,
      eventsUrl,
      browserCheckout,
      customerSimulator: options.customerSimulator ?? false,
    },
    {
      dashboardUrl: options.dashboardUrl,
      log,
      shutdown: shutdown.signal,
    },
  )
  handle = (request) => app.fetch(request)
  return {
    url,
    publicUrl,
    eventsUrl,
    async close() {
      shutdown.abort()
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      })
    },
  }
}
