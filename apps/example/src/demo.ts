// `pnpm demo`: the sandbox and the shop together on loopback, one command, Ctrl-C stops both.
import { readEnvironment } from './config.js'
import { startOnPortOrFree } from './port-fallback.js'
import { runUntilSignal } from './run-until-signal.js'

try {
  const env = readEnvironment(process.env)
  // The sandbox, the client and the shop load once the settings are read: a wrong one is
  // reported at once.
  const [{ createClient }, { startSandbox }, { startShopService }] = await Promise.all([
    import('@chargekit/client'),
    import('@chargekit/sandbox'),
    import('./start-shop-service.js'),
  ])
  const sandbox = await startOnPortOrFree(
    env.SANDBOX_PORT,
    (port) => startSandbox({ port, host: env.SHOP_HOST }),
    (started) =>
      console.log(
        `Port ${env.SANDBOX_PORT} is taken; the sandbox listens on ${new URL(started.url).port} instead.`,
      ),
  )
  const account = sandbox.accounts[0]
  if (!account) throw new Error('The sandbox started without an account.')
  const client = createClient({
    accountId: account.id,
    privateKey: account.key,
    baseUrl: sandbox.url,
  })
  const dashboardUrl = `${sandbox.url}/dashboard`
  const service = await startShopService(env, client, {
    url: sandbox.url,
    publicKey: account.publicKey,
    // The sandbox signs its deliveries with the account's secret: the shop refuses any other.
    signingSecret: account.signingSecret,
    dashboardUrl,
    // The demo's service is the sandbox: its test helpers may play the MB WAY / Multibanco customer.
    customerSimulator: true,
  }).catch(async (error: unknown) => {
    await sandbox.close()
    throw error
  })
  // Listen for Ctrl-C before the banner: whoever reads the banner may stop us at once.
  runUntilSignal(async () => {
    await service.stop()
    await sandbox.close()
  })
  console.log(`
  chargekit demo is running

  Shop               ${service.shop.url}
  Sandbox API        ${sandbox.apiUrl}
  Sandbox dashboard  ${dashboardUrl}
  Credentials        account ${account.id} / private key ${account.privateKey} / public key ${account.publicKey}
  Signing secret     ${account.signingSecret ?? 'none: deliveries go unsigned'} (the shop checks each delivery with it)
  Database           ${databaseLabel(env)}

  Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined (the card form lists
  them all), with any future expiry and any CVC. MB WAY and Multibanco (euro products):
  approve or pay from the order page's "simulate the customer" panel.
  Ctrl-C stops both.
`)
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}

function databaseLabel(env: {
  DATABASE_URL?: string | undefined
  PGLITE_DATA_DIR?: string | undefined
}) {
  if (env.DATABASE_URL) return 'PostgreSQL (DATABASE_URL)'
  return env.PGLITE_DATA_DIR
    ? `embedded PGlite in ${env.PGLITE_DATA_DIR}`
    : 'embedded PGlite, in memory'
}
