// `pnpm --filter @chargekit/example start`: the shop alone, against the service (or a sandbox)
// named by CHARGEKIT_BASE_URL, CHARGEKIT_ACCOUNT_ID and CHARGEKIT_PRIVATE_KEY.
import { createClient } from '@chargekit/client'
import { readEnvironment } from './config.js'
import { runUntilSignal } from './run-until-signal.js'
import { startShopService } from './start-shop-service.js'

try {
  const env = readEnvironment(process.env)
  // createClient reads CHARGEKIT_* itself and says which one is missing or malformed.
  const client = createClient()
  const origin = new URL(env.CHARGEKIT_BASE_URL ?? '').origin
  const service = await startShopService(env, client, { origin })
  runUntilSignal(service.stop)
  console.log(
    `Shop: ${service.shop.url}  (payment service: ${origin}, database: ${service.database.driver})`,
  )
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
