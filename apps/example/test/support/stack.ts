import { createClient } from '@chargekit/client'
import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import type { Database } from '../../src/db/database.js'
import { openDatabase } from '../../src/db/open-database.js'
import { type Shop, startShop } from '../../src/shop.js'
import type { ServiceClient } from '../../src/shop-context.js'

export interface Stack {
  sandbox: Sandbox
  client: ServiceClient
  database: Database
  shop: Shop
  /** What the shop logged (webhook refusals, errors). */
  logs: string[]
  close(): Promise<void>
}

/** A sandbox and a shop on loopback ports, as the demo runs them; `publicUrl` may front the shop. */
export async function startStack(options: { publicUrl?: string } = {}): Promise<Stack> {
  const sandbox = await startSandbox({ port: 0 })
  const account = sandbox.accounts[0]
  if (!account) throw new Error('sandbox has no account')
  const client = createClient({
    accountId: account.id,
    privateKey: account.key,
    baseUrl: sandbox.url,
  })
  const database = await openDatabase({})
  const logs: string[] = []
  const log = (message: string) => {
    logs.push(message)
  }
  const shop = await startShop({
    client,
    database,
    serviceOrigin: sandbox.url,
    log,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  })
  return {
    sandbox,
    client,
    database,
    shop,
    logs,
    async close() {
      await shop.close()
      await sandbox.close()
      await database.close()
    },
  }
}
