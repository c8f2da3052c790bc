// `pnpm --filter @chargekit/example start`: the shop alone, against the service (or a sandbox)
// named by CHARGEKIT_BASE_URL, CHARGEKIT_ACCOUNT_ID, CHARGEKIT_PRIVATE_KEY and
// CHARGEKIT_PUBLIC_KEY (and CHARGEKIT_SIGNING_SECRET for a sandbox, which signs deliveries).
import { createClient } from '@chargekit/client'
import { readEnvironment } from './config.js'
import { runUntilSignal } from './run-until-signal.js'
import { startShopService } from './start-shop-service.js'

try {
  const env = readEnvironment(process.env)
  // createClient reads CHARGEKIT_* itself and says which one is missing or malformed.
  const client = createClient()
  if (!env.CHARGEKIT_PUBLIC_KEY) {
    throw new Error(
      "Set CHARGEKIT_PUBLIC_KEY to the account's public key (pk_…): the checkout page sends the card with it.",
    )
  }
  const url = env.CHARGEKIT_BASE_URL ?? ''
  const service = await startShopService(env, client, {
    // Browsers may reach the service by another name than the shop's server does (a compose
    // service name is known inside the compose network only).
    url: env.CHARGEKIT_BROWSER_BASE_URL ?? url,
    publicKey: env.CHARGEKIT_PUBLIC_KEY,
    // Set for a sandbox, which signs its deliveries; the production service signs none.
    signingSecret: env.CHARGEKIT_SIGNING_SECRET,
  })
  runUntilSignal(service.stop)
  console.log(
    `Shop: ${service.shop.url}  (payment service: ${url}, database: ${service.database.driver})`,
  )
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
