import { mkdir, writeFile } from 'node:fs/promises'
import { delimiter, dirname, join, resolve } from 'node:path'
import type { Shell } from './shell'

/**
 * A person who has never seen the repository: a home folder of their own (so npm's and pnpm's
 * caches, stores and global installs start empty), an npmrc naming the rehearsal registry as
 * their registry, none of the workspace's environment (no `npm_config_*`, no workspace
 * `node_modules/.bin` on PATH), and the Node.js this rehearsal runs on.
 */
export async function createStranger(folder: string, registryUrl: string, workspace: string) {
  const home = join(folder, 'home')
  const globalPrefix = join(home, '.npm-global')
  await mkdir(globalPrefix, { recursive: true })
  await writeFile(join(home, '.npmrc'), `registry=${registryUrl}\nprefix=${globalPrefix}\n`)
  const path = [
    join(globalPrefix, 'bin'),
    dirname(process.execPath),
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(
        (entry) =>
          entry !== '' &&
          !resolve(entry).startsWith(resolve(workspace)) &&
          !entry.includes('node_modules') &&
          !entry.includes('_npx'),
      ),
  ]
  const env: NodeJS.ProcessEnv = { HOME: home, PATH: path.join(delimiter), CI: 'true' }
  for (const name of ['LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TERM']) {
    if (process.env[name] !== undefined) env[name] = process.env[name]
  }
  return {
    home,
    /** A new, empty project folder, with the stranger's environment. */
    async project(name: string): Promise<Shell> {
      const cwd = join(folder, name)
      await mkdir(cwd, { recursive: true })
      return { cwd, env }
    },
  }
}

/**
 * A merchant's first integration, from the client's and the webhooks' READMEs: a webhook
 * endpoint, a charge whose events go to it, the test card, and the payment's event received and
 * checked. `module` picks ES module imports or CommonJS requires; the code is otherwise one.
 */
export function merchantScript(module: 'esm' | 'cjs', sandboxUrl: string): string {
  const header =
    module === 'esm'
      ? [
          "import { createServer } from 'node:http'",
          "import { createClient } from '@chargekit/client'",
          "import { createMemoryDeliveryStore, createNodeMiddleware, createWebhooks } from '@chargekit/webhooks'",
        ]
      : [
          "const { createServer } = require('node:http')",
          "const { createClient } = require('@chargekit/client')",
          "const { createMemoryDeliveryStore, createNodeMiddleware, createWebhooks } = require('@chargekit/webhooks')",
        ]
  return `${header.join('\n')}

async function main() {
  const client = createClient({
    accountId: 'acct_sandbox',
    privateKey: 'sk_sandbox',
    baseUrl: '${sandboxUrl}',
  })
  const webhooks = createWebhooks({ client, store: createMemoryDeliveryStore() })
  const paid = new Promise((resolve) => webhooks.on('payment.success', resolve))
  const server = createServer(createNodeMiddleware(webhooks, { path: '/webhooks' }))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))

  const charge = await client.charges.create({
    charge_type: 'card_onetime',
    amount: 49.9,
    currency: 'EUR',
    events_url: \`http://127.0.0.1:\${server.address().port}/webhooks\`,
    metadata: { order_id: 'A-1001' },
  })
  const instrument = await client.instruments.create({
    charge: charge.id,
    name: 'Ada Lovelace',
    number: '4242424242424242',
    expiration_month: 12,
    expiration_year: new Date().getFullYear() + 3,
    cvc: '123',
  })
  const timeout = setTimeout(() => {
    console.error('No payment.success delivery within 60 s')
    process.exit(1)
  }, 60_000)
  const event = await paid
  clearTimeout(timeout)
  server.close()
  if (event.charge.id !== charge.id || event.payment.amount !== 49.9) {
    throw new Error(\`Unexpected event: \${JSON.stringify(event)}\`)
  }
  console.log(
    \`paid \${event.charge.metadata.order_id}: charge \${charge.id}, instrument \${instrument.status}, \${event.type} \${event.payment.amount} \${event.payment.currency}\`,
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
`
}
