import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import { authorization } from '@chargekit/sandbox/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { pgliteFolder } from '../../../scripts/pglite-template.js'

const appDir = fileURLToPath(new URL('..', import.meta.url))
const scripts = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).scripts

/** Runs the package's `demo` script as written (with this Node), like `pnpm demo` does. */
function startDemo(env: Record<string, string>) {
  const [command, ...args] = String(scripts.demo).split(' ')
  expect(command).toBe('node')
  const child = spawn(process.execPath, args, {
    cwd: appDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const ready = new Promise<string>((resolve, reject) => {
    const check = () => {
      if (output.includes('Ctrl-C stops both')) resolve(output)
    }
    child.stdout?.on('data', check)
    child.once('exit', (code) => reject(new Error(`demo exited early (${code}):\n${output}`)))
  })
  // Awaited only by the tests that expect a start; others must not see an unhandled rejection.
  ready.catch(() => {})
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  return { child, ready, exited, output: () => output }
}

function occupyPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 })
    })
  })
}

// The two runs are separate processes: they run side by side.
describe.concurrent('pnpm demo', () => {
  const children: ChildProcess[] = []
  const folders: { remove(): Promise<void> }[] = []
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    await Promise.all(folders.map((folder) => folder.remove()))
  })

  it('starts sandbox and shop, prints URLs and credentials, falls back from taken ports, stops on Ctrl-C', async () => {
    const taken = await occupyPort()
    const takenBySandbox = await occupyPort()
    // A copy of a fresh database's folder opens in a fraction of the CPU that initializing a
    // new database takes (about 3 s).
    const folder = await pgliteFolder()
    folders.push(folder)
    const dataFolder = folder.path
    try {
      const demo = startDemo({
        SHOP_PORT: String(taken.port),
        SANDBOX_PORT: String(takenBySandbox.port),
        PGLITE_DATA_DIR: dataFolder,
      })
      children.push(demo.child)
      const output = await demo.ready
      expect(output).toContain(`Port ${taken.port} is taken; the shop listens on`)
      expect(output).toContain(`Port ${takenBySandbox.port} is taken; the sandbox listens on`)
      const shopUrl = /Shop\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1]
      const apiUrl = /Sandbox API\s+(http:\/\/127\.0\.0\.1:\d+\/v2)/.exec(output)?.[1]
      expect(output).toContain(
        'account acct_sandbox / private key sk_sandbox / public key pk_sandbox',
      )
      expect(output).toContain(`embedded PGlite in ${dataFolder}`)
      expect(shopUrl).toBeDefined()
      expect(shopUrl).not.toContain(`:${taken.port}`)
      expect(apiUrl).toBeDefined()
      expect(apiUrl).not.toContain(`:${takenBySandbox.port}/`)

      const home = await fetch(shopUrl ?? '')
      expect(home.status).toBe(200)
      expect(await home.text()).toContain('Bean &amp; Brew')
      // The checkout script is bundled from the example's TypeScript when first asked for.
      const script = await fetch(`${shopUrl}/assets/checkout.js`)
      expect(script.status).toBe(200)
      expect(script.headers.get('content-type')).toContain('text/javascript')
      expect(await script.text()).toContain('data-payment-form')
      const charges = await fetch(`${apiUrl}/charges`, {
        headers: { authorization: authorization('acct_sandbox', 'sk_sandbox') },
      })
      expect(charges.status).toBe(200)

      demo.child.kill('SIGINT')
      expect(await demo.exited).toBe(0)
      await expect(fetch(shopUrl ?? '')).rejects.toThrow()
      await expect(fetch(`${apiUrl}/charges`)).rejects.toThrow()
    } finally {
      taken.server.close()
      takenBySandbox.server.close()
    }
  })

  it('stops with a clear message on a bad setting', async () => {
    const demo = startDemo({ SHOP_PORT: 'eighty' })
    children.push(demo.child)
    expect(await demo.exited).toBe(1)
    expect(demo.output()).toContain('SHOP_PORT')
    expect(demo.output()).toContain('Expected a port number')
  })
})
