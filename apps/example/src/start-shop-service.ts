import type { ChargekitClient } from '@chargekit/client'
import type { ShopEnvironment } from './config.js'
import type { Database } from './db/open-database.js'
import { openDatabase } from './db/open-database.js'
import { type Shop, startShop } from './shop.js'

/** Opens the configured database and starts the shop on it: what `start` and `demo` share. */
export async function startShopService(
  env: ShopEnvironment,
  client: ChargekitClient,
  service: { url: string; publicKey: string; dashboardUrl?: string; customerSimulator?: boolean },
): Promise<{ shop: Shop; database: Database; stop(): Promise<void> }> {
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    pgliteDataDir: env.PGLITE_DATA_DIR,
  })
  const shop = await startShop({
    client,
    database,
    host: env.SHOP_HOST,
    port: env.SHOP_PORT,
    ...(env.SHOP_PUBLIC_URL ? { publicUrl: env.SHOP_PUBLIC_URL } : {}),
    ...(env.SHOP_EVENTS_URL ? { eventsUrl: env.SHOP_EVENTS_URL } : {}),
    browserCheckout: { publicKey: service.publicKey, serviceUrl: service.url },
    ...(service.dashboardUrl ? { dashboardUrl: service.dashboardUrl } : {}),
    ...(service.customerSimulator ? { customerSimulator: true } : {}),
  }).catch(async (error: unknown) => {
    await database.close()
    throw error
  })
  return {
    shop,
    database,
    async stop() {
      await shop.close()
      await database.close()
    },
  }
}
