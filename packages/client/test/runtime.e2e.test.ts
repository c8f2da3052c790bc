import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TestSandbox } from '@chargekit/sandbox/testing'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../scripts/launch-chromium'
import { type FaultProxy, startFaultProxy } from './support/fault-proxy'
import { account, startClientSandbox } from './support/sandbox'

const srcDir = join(import.meta.dirname, '..', 'src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  )
}

describe('web-standard only', () => {
  it('has no node: imports or Node globals in src, outside the Node entry', () => {
    // The transport of the `@chargekit/client/node` entry is Node's by its name.
    const nodeOnly = join(srcDir, 'node-transport.ts')
    const offenders = sourceFiles(srcDir).filter((file) => {
      const text = readFileSync(file, 'utf8')
      return /from ['"]node:|require\(|\bBuffer\b|^\s*process\./m.test(text)
    })
    expect(offenders.filter((file) => file !== nodeOnly)).toEqual([])
  })

  it('bundles for browsers without Node built-ins', async () => {
    const result = await build({
      entryPoints: [join(srcDir, 'index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      conditions: ['@chargekit/source'],
      write: false,
      logLevel: 'silent',
    })
    expect(result.errors).toEqual([])
    expect(result.outputFiles[0]?.text).toContain('chargekit-client/')
  })
})

describe('in Chromium against the sandbox', () => {
  let env: TestSandbox
  let proxy: FaultProxy
  let browser: Browser

  beforeAll(async () => {
    env = await startClientSandbox()
    // The page and the API share the proxy's origin, so the browser needs no CORS.
    proxy = await startFaultProxy(env.sandbox.url)
    browser = await launchChromium()
  }, 30_000)
  afterAll(async () => {
    await browser?.close()
    await proxy?.close()
    await env?.close()
  })

  it('runs a payment, a decline and a paginated list', async () => {
    const bundle = await build({
      entryPoints: [join(srcDir, 'index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'chargekit',
      conditions: ['@chargekit/source'],
      write: false,
      logLevel: 'silent',
    })
    const script = bundle.outputFiles[0]?.text ?? ''
    proxy.inject(
      { method: 'GET', path: '/' },
      {
        kind: 'respond',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<!doctype html><title>client</title>',
      },
    )
    const page = await browser.newPage()
    try {
      await page.goto(`${proxy.url}/`)
      await page.addScriptTag({ content: script })
      const result = await page.evaluate(
        async ({ accountId, privateKey, eventsUrl }) => {
          const { createClient, PaymentError } = (
            globalThis as unknown as { chargekit: typeof import('../src/index') }
          ).chargekit
          const options = { accountId, privateKey, baseUrl: location.origin }
          let refused = ''
          try {
            createClient(options)
          } catch (error) {
            refused = String(error)
          }
          // An internal tool may still run it here, knowingly.
          const client = createClient({ ...options, dangerouslyAllowBrowser: true })
          const card = {
            name: 'Web',
            number: '4242424242424242',
            expiration_month: 12,
            expiration_year: 2040,
            cvc: '123',
          }
          const charge = await client.charges.create({
            charge_type: 'card_onetime',
            amount: 12.5,
            currency: 'EUR',
            events_url: eventsUrl,
          })
          const instrument = await client.instruments.create({ charge: charge.id, ...card })
          const declined = await client.charges.create({
            charge_type: 'card_onetime',
            amount: 6020000.2,
            currency: 'EUR',
            events_url: eventsUrl,
          })
          let decline = ''
          try {
            await client.instruments.create({ charge: declined.id, ...card })
          } catch (error) {
            decline =
              error instanceof PaymentError ? `${error.code} ${error.element}` : String(error)
          }
          let events = 0
          for await (const _event of client.events.list({ per_page: 2 })) events += 1
          return { refused, status: instrument.status, decline, events }
        },
        { accountId: account.id, privateKey: account.key, eventsUrl: env.eventsUrl },
      )
      // A page holding the private key is refused unless it says it knows.
      expect(result.refused).toMatch(/refusing to run in a browser.*createBrowserClient/)
      expect(result.status).toBe('authorized')
      expect(result.decline).toBe('06.02.0000 instrument')
      expect(result.events).toBeGreaterThan(4)
      const apiCalls = proxy.requests.filter((request) => request.url.startsWith('/v2/'))
      expect(
        apiCalls.every(
          (request) => request.headers['idempotency-key'] !== undefined || request.method === 'GET',
        ),
      ).toBe(true)
    } finally {
      await page.close()
    }
  }, 60_000)
})
