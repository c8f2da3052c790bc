import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readmeCodeBlock, readmeCommand } from './readme'
import { run, type Shell, type Started, start } from './shell'
import { createStranger, merchantScript } from './stranger'

/** What the READMEs start the sandbox on and point every other command at. */
const sandboxUrl = 'http://127.0.0.1:4010'

/**
 * A stranger's first hour with the published packages, from the rehearsal registry: the
 * READMEs' commands run as they are written, in new folders outside the workspace. `step` times
 * and names each part for the report.
 */
export async function strangerJourneys(
  root: string,
  folder: string,
  registryUrl: string,
  step: <T>(name: string, work: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const stranger = await createStranger(folder, registryUrl, root)
  const readme = (file: string, command: string) => readmeCommand(root, file, command)
  const background: Started[] = []
  const startInBackground = (command: string, shell: Shell) => {
    const started = start(command, shell)
    background.push(started)
    return started
  }
  try {
    const shop = await stranger.project('shop')
    await step('npm: install the client and the webhooks', async () => {
      await run('npm init -y', shop)
      await run('npm install @chargekit/client @chargekit/webhooks', shop)
    })

    await step('npx: the sandbox, fetched from the registry', async () => {
      await waitUntilFree(4010)
      const sandbox = startInBackground(
        readme('packages/sandbox/README.md', 'npx @chargekit/sandbox --port 4010'),
        shop,
      )
      await sandbox.waitFor(/listening on http:\/\/127\.0\.0\.1:4010/, 180_000)
    })

    await step(
      'npm, ES module: a charge paid with the test card, its webhook received',
      async () => {
        await writeFile(join(shop.cwd, 'shop.mjs'), merchantScript('esm', sandboxUrl))
        console.log(quiet(await run('node shop.mjs', shop), 'node shop.mjs').trim())
      },
    )

    await step('chargekit CLI: the README walkthrough, from trigger to a handler', async () => {
      const cli = 'packages/cli/README.md'
      await writeFile(join(shop.cwd, 'server.mjs'), readmeCodeBlock(root, cli, '// server.mjs'))
      await waitUntilFree(3000)
      const server = startInBackground(
        readmeCodeBlock(
          root,
          cli,
          'CHARGEKIT_BASE_URL=http://127.0.0.1:4010 CHARGEKIT_ACCOUNT_ID=acct_sandbox \\',
        ),
        shop,
      )
      await waitForHttp('http://127.0.0.1:3000/')
      const listen = startInBackground(
        readme(cli, 'npx chargekit listen --forward-to http://127.0.0.1:3000/webhooks'),
        shop,
      )
      await listen.waitFor(/Ready: following the events/, 180_000)
      await run(readme(cli, 'npx chargekit trigger payment.success'), shop)
      await listen.waitFor(/payment\.success\s+ev_\S+\s+\[200\]/)
      const [paid] = await server.waitFor(/paid: .+ pa_\S+/)
      console.log(paid)
      await listen.stop()
      await server.stop()
      quiet(server.output(), "the CLI README's server.mjs")
      if (!/Resume with: chargekit listen --since \S+/.test(listen.output())) {
        throw new Error(`chargekit listen stopped without its resume command:\n${listen.output()}`)
      }
    })

    await step('chargekit CLI installed globally: the README commands', async () => {
      const cli = 'packages/cli/README.md'
      await run(readme(cli, 'npm install --global chargekit'), shop)
      for (const command of [
        'chargekit trigger --error 06.02.0000 --at instrument',
        'chargekit trigger --error 03.03.0001 --at payment --json',
        'chargekit events list --type payment.success --created-gte 2026-01-31T00:00:00Z --limit 5',
      ]) {
        await run(readme(cli, command), shop)
      }
    })

    await step('the errors and schemas READMEs: their examples', async () => {
      const errors = 'packages/errors/README.md'
      await run(readme(errors, 'npm install @chargekit/errors'), shop)
      await writeFile(
        join(shop.cwd, 'example.ts'),
        readmeCodeBlock(root, errors, "const failureCode = '02.03.0000'"),
      )
      expectOutput(quiet(await run(readme(errors, 'npx tsx example.ts'), shop), 'example.ts'), [
        '6020000.2',
        '3030001.30',
        "{ code: '06.02.0000', element: 'instrument' }",
        'Insufficient Funds true',
      ])
      const schemas = 'packages/schemas/README.md'
      await run(readme(schemas, 'npm install @chargekit/schemas zod'), shop)
      const selfContained = readmeCodeBlock(root, schemas, 'node --input-type=module -e "')
      expectOutput(quiet(await run(selfContained, shop), 'the schemas README example'), [
        'Expected at most 2 decimals for USD',
        '29n',
      ])
    })

    await step('pnpm: install, and the same payment', async () => {
      const pnpmShop = await stranger.project('pnpm-shop')
      await run(`npm install --global pnpm@${pinnedPnpm(root)}`, pnpmShop)
      // Not `pnpm init`: it pins the newest pnpm in the new package.json, which pnpm then
      // downloads as platform binaries that this machine's registry mirror does not serve.
      await run('npm init -y', pnpmShop)
      await run('pnpm add @chargekit/client @chargekit/webhooks', pnpmShop)
      await writeFile(join(pnpmShop.cwd, 'shop.mjs'), merchantScript('esm', sandboxUrl))
      console.log(quiet(await run('node shop.mjs', pnpmShop), 'node shop.mjs').trim())
    })

    await step('npm, CommonJS: the same payment with require()', async () => {
      const cjsShop = await stranger.project('commonjs-shop')
      await run('npm init -y', cjsShop)
      await run('npm install @chargekit/client @chargekit/webhooks', cjsShop)
      await writeFile(join(cjsShop.cwd, 'shop.cjs'), merchantScript('cjs', sandboxUrl))
      console.log(quiet(await run('node shop.cjs', cjsShop), 'node shop.cjs').trim())
    })

    for (const started of background.splice(0)) await started.stop()

    await step('the sandbox as a dev dependency, keeping state in --data', async () => {
      const sandboxReadme = 'packages/sandbox/README.md'
      await run(readme(sandboxReadme, 'npm install --save-dev @chargekit/sandbox'), shop)
      const withData = readme(sandboxReadme, 'npx @chargekit/sandbox --data ./sandbox-state')
      const first = startInBackground(withData, shop)
      // Its output is piped here, not a terminal, so the banner comes as a JSON line.
      await first.waitFor(/"state":"an embedded database in \.\/sandbox-state"/)
      const triggered = JSON.parse(await run('chargekit trigger payment.success --json', shop))
      const chargeId: string = triggered.flows[0].events[0].charge.id
      await first.stop()
      const second = startInBackground(withData, shop)
      await second.waitFor(/listening on/)
      const events = JSON.parse(
        await run(`chargekit events list --charge ${chargeId} --json`, shop),
      )
      await second.stop()
      const types = events.map((event: { type: string }) => event.type)
      if (!types.includes('payment.success')) {
        throw new Error(`After a restart on --data, ${chargeId} has only ${types.join(', ')}`)
      }
      console.log(`after a restart on --data: ${chargeId} has ${types.length} events`)
    })

    await step('the webhooks README: its example, against the sandbox it starts', async () => {
      const file = 'webhooks-example.mts'
      await writeFile(
        join(shop.cwd, file),
        readmeCodeBlock(
          root,
          'packages/webhooks/README.md',
          "import { startSandbox } from '@chargekit/sandbox'",
        ),
      )
      const example = startInBackground(`npx tsx ${file}`, shop)
      const [paid] = await example.waitFor(/paid order order-1001 with in_\S+/, 180_000)
      await example.waitFor(/payment\.success ev_\S+/)
      await example.stop()
      quiet(example.output(), 'the webhooks README example')
      console.log(paid)
    })
  } finally {
    for (const started of background) await started.stop()
  }
}

/**
 * `output`, after checking that it has no warning in it: a README's example runs as printed, and
 * a warning on its first run (Node's, or one of ours) is the README showing how not to do it.
 */
function quiet(output: string, example: string): string {
  const warning = /^\(node:\d+\) \w*Warning|^@chargekit\/[\w-]+: /m.exec(output)
  if (warning !== null) {
    throw new Error(`${example} printed a warning:\n${output.slice(warning.index).trimEnd()}`)
  }
  return output
}

function expectOutput(output: string, expected: readonly string[]) {
  const missing = expected.filter((text) => !output.includes(text))
  if (missing.length > 0) {
    throw new Error(`The output lacks ${missing.join(', ')}:\n${output}`)
  }
}

/** The pnpm version the repository pins (`packageManager`), which a pnpm user would have. */
function pinnedPnpm(root: string): string {
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    packageManager: string
  }
  return packageManager.replace(/^pnpm@/, '')
}

/**
 * The READMEs name fixed ports (4010, 3000). Another program holding one (a demo left running)
 * would answer in the sandbox's place: wait a little for it to go, then say which port it is.
 */
async function waitUntilFree(port: number) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const answer = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined)
    if (answer === undefined) return
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  throw new Error(
    `Port ${port} on 127.0.0.1 is in use: the READMEs' commands need it. Stop what listens there.`,
  )
}

async function waitForHttp(url: string) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (await fetch(url).catch(() => undefined)) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`Nothing answered at ${url} within 60 s`)
}
