import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'

const exampleDir = fileURLToPath(new URL('..', import.meta.url))
const sandboxDir = dirname(
  createRequire(import.meta.url).resolve('@chargekit/sandbox/package.json'),
)
let running: ChildProcess | undefined

afterEach(() => {
  if (running?.exitCode === null && running.signalCode === null) running.kill('SIGKILL')
})

/** `chargekit-sandbox --processor ./src/index.ts`, from this package's directory. */
function startCli(): Promise<{ url: string; banner: string }> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@chargekit/source',
      '--import',
      'tsx',
      join(sandboxDir, 'src/cli.ts'),
      '--port',
      '0',
      '--quiet',
      '--log-format',
      'text',
      '--time-scale',
      '0.01',
      '--processor',
      './src/index.ts',
    ],
    { cwd: exampleDir, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  running = child
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1]
      if (url !== undefined && stdout.includes('Press Ctrl-C')) resolve({ url, banner: stdout })
    })
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${stderr}`)))
  })
}

it('is loaded by chargekit-sandbox --processor, and takes a voucher payment over HTTP', async () => {
  const { url, banner } = await startCli()
  expect(banner).toContain('Processor:    voucherly (voucher)')
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/v2${path}`, {
      method,
      headers: {
        authorization: `Basic ${btoa('acct_sandbox:sk_sandbox')}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: await response.json() }
  }
  // The charge type is published with its instrument schema.
  const types = await call('GET', '/charges/types')
  expect(JSON.stringify(types.body)).toContain('voucher_code')

  const charge = await call('POST', '/charges', {
    charge_type: 'voucher',
    amount: 20,
    currency: 'EUR',
    events_url: 'https://shop.example/events',
  })
  expect(charge).toMatchObject({
    status: 201,
    body: { charge_type_label: 'Gift voucher', channels: [{ label: 'voucher_voucherly' }] },
  })
  const refused = await call('POST', '/instruments', { charge: charge.body.id, voucher_code: '12' })
  expect(refused.status).toBe(400)
  expect(refused.body.parameters.voucher_code).toEqual([
    'Expected a voucher code such as GIFT-1234-5678',
  ])
  // The issuer checks the balance a moment later (3 s at time scale 0.01: 30 ms).
  const created = await call('POST', '/instruments', {
    charge: charge.body.id,
    voucher_code: 'gift-2024-0042',
  })
  expect(created).toMatchObject({
    status: 201,
    body: { status: 'pending', params: { voucher_last_4: '0042' } },
  })
  let instrument = created.body
  for (let tries = 0; instrument.status === 'pending' && tries < 200; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    instrument = (await call('GET', `/instruments/${created.body.id}`)).body
  }
  expect(instrument).toMatchObject({
    status: 'authorized',
    external_ids: { descriptor: 'VOUCHERLY' },
    last_payment: { status: 'success' },
  })
  running?.kill('SIGTERM')
})
