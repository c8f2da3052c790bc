// `pnpm demo`: the sandbox and the shop together on loopback, one command, Ctrl-C stops both.
import { createClient } from '@chargekit/client'
import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import { readEnvironment } from './config.js'
import { runUntilSignal } from './run-until-signal.js'
import { startShopService } from './start-shop-service.js'

async function startSandboxWithFallback(port: number, host: string): Promise<Sandbox> {
  try {
    return await startSandbox({ port, host })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error
    console.log(`Port ${port} is taken; the sandbox listens on a free port instead.`)
    return startSandbox({ port: 0, host })
  }
}

try {
  const env = readEnvironment(process.env)
  const sandbox = await startSandboxWithFallback(env.SANDBOX_PORT, env.SHOP_HOST)
  const account = sandbox.accounts[0]
  if (!account) throw new Error('The sandbox started without an account.')
  const client = createClient({
    accountId: account.id,
    privateKey: account.key,
    baseUrl: sandbox.url,
  })
  const dashboardUrl = `${sandbox.url}/dashboard`
  const service = await startShopService(env, client, { origin: sandbox.url, dashboardUrl }).catch(
    async (error: unknown) => {
      await sandbox.close()
      throw error
    },
  )
  console.log(`
  chargekit demo is running

  Shop               ${service.shop.url}
  Sandbox API        ${sandbox.apiUrl}
  Sandbox dashboard  ${dashboardUrl}
  Credentials        account ${account.id} / private key ${account.key}
  Database           ${databaseLabel(env)}

  Test card 4242 4242 4242 4242, any future expiry, any CVC. Ctrl-C stops both.
`)
  runUntilSignal(async () => {
    await service.stop()
    await sandbox.close()
  })
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
