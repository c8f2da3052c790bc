import { type ChargekitClient, createClient } from '@chargekit/client'
import { type Processor, type Sandbox, startSandbox } from '@chargekit/sandbox'
import { pgliteFolder } from '../../../../scripts/pglite-template.js'
import type { Database } from '../../src/db/open-database.js'
import { openDatabase } from '../../src/db/open-database.js'
import { createOrderUpdates } from '../../src/orders/order-updates.js'
import { paymentMethodSource } from '../../src/payments/payment-methods.js'
import { type Shop, startShop } from '../../src/shop.js'
import type { ShopContext } from '../../src/shop-context.js'

export interface Stack {
  sandbox: Sandbox
  client: ChargekitClient
  database: Database
  shop: Shop
  /** The public key and service URL the shop's pages send cards with. */
  browserCheckout: { publicKey: string; serviceUrl: string }
  /** The shop's parts, for tests that create orders the shop's pages cannot (a coded amount). */
  context: ShopContext
  /** What the shop logged (webhook refusals, errors). */
  logs: string[]
  close(): Promise<void>
}

export interface StackOptions {
  publicUrl?: string
  processors?: readonly Processor[]
  /** The shop's sandbox-only "simulate the customer" panel. */
  customerSimulator?: boolean
  /** The sandbox's `timeScale` (default 1, real time). */
  timeScale?: number
}

/**
 * A sandbox and a shop on loopback ports, as the demo runs them; `publicUrl` may front the shop,
 * `processors` add sandbox plug-ins (channels the shop does not offer, for orders a test builds).
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const sandbox = await startSandbox({
    port: 0,
    processors: options.processors ?? [],
    ...(options.timeScale === undefined ? {} : { timeScale: options.timeScale }),
  })
  const account = sandbox.accounts[0]
  if (!account) throw new Error('sandbox has no account')
  // The shop's calls reach the sandbox in-process: the client's HTTP is its own tests' subject,
  // and the demo test runs the shop against the sandbox over HTTP. Browsers and deliveries still
  // come over HTTP.
  const client = createClient({
    accountId: account.id,
    privateKey: account.key,
    baseUrl: sandbox.url,
    fetch: (input, init) => sandbox.fetch(new Request(input, init)),
  })
  const browserCheckout = { publicKey: account.publicKey, serviceUrl: sandbox.url }
  // The shop's embedded database, in a copy of a fresh one's data folder.
  const folder = await pgliteFolder()
  const database = await openDatabase({ pgliteDataDir: folder.path })
  const logs: string[] = []
  const log = (message: string) => {
    logs.push(message)
  }
  const shop = await startShop({
    client,
    database,
    browserCheckout,
    log,
    ...(options.customerSimulator ? { customerSimulator: true } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  })
  const context: ShopContext = {
    db: database,
    client,
    updates: createOrderUpdates(),
    publicUrl: shop.publicUrl,
    eventsUrl: shop.eventsUrl,
    browserCheckout: { ...browserCheckout, paymentMethods: paymentMethodSource(client) },
    customerSimulator: options.customerSimulator ?? false,
  }
  return {
    sandbox,
    context,
    client,
    database,
    shop,
    browserCheckout,
    logs,
    async close() {
      await shop.close()
      await sandbox.close()
      await database.close()
      await folder.remove()
    },
  }
}
