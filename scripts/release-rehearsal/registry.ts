import { execFileSync, spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { cachedPackage } from '../cached-package'
import { freePort } from '../free-port'

// The newest Verdaccio that runs on Node 20 (6.10 requires Node 22).
const verdaccio = 'verdaccio@6.8.0'

export interface Registry {
  /** `http://127.0.0.1:PORT/` */
  url: string
  /** A publish token of the registry's one user, as `npm login` would store it. */
  token: string
  /** Where the published tarballs are: `<storage>/<name>/<file>.tgz`. */
  storage: string
  /** The registry's log, for reports of failures. */
  log(): string
  stop(): Promise<void>
}

/**
 * A throw-away npm registry (Verdaccio) on 127.0.0.1, its storage in `folder`. The workspace's
 * own package names are served only from what is published to it, never fetched elsewhere: an
 * install that finds one there found the rehearsal's. Every other package comes through it from
 * the registry npm is configured with, as dependencies come from npm for a user.
 */
export async function startRegistry(folder: string, ownPackages: readonly string[]) {
  const installed = await cachedPackage(verdaccio)
  const storage = join(folder, 'storage')
  await mkdir(storage, { recursive: true })
  const upstream = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim()
  const own = ownPackages.map(
    (name) => `  '${name}':\n    access: $all\n    publish: $authenticated\n    unpublish: false`,
  )
  const config = join(folder, 'verdaccio.yaml')
  await writeFile(
    config,
    [
      `storage: ${storage}`,
      'auth:',
      `  htpasswd:\n    file: ${join(folder, 'htpasswd')}`,
      `uplinks:\n  upstream:\n    url: ${upstream}\n    timeout: 60s`,
      'packages:',
      ...own,
      "  '**':\n    access: $all\n    proxy: upstream",
      'web:\n  enable: false',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  )
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  const server = spawn(
    process.execPath,
    [
      join(installed, 'node_modules', 'verdaccio', 'bin', 'verdaccio'),
      '--config',
      config,
      '--listen',
      `127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let log = ''
  server.stdout.on('data', (chunk: Buffer) => {
    log += chunk
  })
  server.stderr.on('data', (chunk: Buffer) => {
    log += chunk
  })
  const stop = async () => {
    if (server.exitCode !== null) return
    const closed = new Promise((resolve) => server.once('close', resolve))
    server.kill('SIGTERM')
    await closed
  }
  process.once('exit', () => server.kill('SIGKILL'))
  try {
    await waitUntilUp(
      url,
      () => server.exitCode !== null,
      () => log,
    )
    const token = await addUser(url)
    return { url, token, storage, log: () => log, stop } satisfies Registry
  } catch (error) {
    await stop()
    throw error
  }
}

async function waitUntilUp(url: string, exited: () => boolean, log: () => string) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (exited()) throw new Error(`Verdaccio stopped while starting:\n${log()}`)
    const answer = await fetch(new URL('-/ping', url)).catch(() => undefined)
    if (answer?.ok) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`Verdaccio did not answer at ${url} within 60 s:\n${log()}`)
}

/** Creates the registry's user and returns its token, as `npm adduser` does. */
async function addUser(url: string): Promise<string> {
  const name = 'maintainer'
  const answer = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: crypto.randomUUID() }),
  })
  const body = (await answer.json()) as { token?: string }
  if (!answer.ok || body.token === undefined) {
    throw new Error(
      `Could not create the registry's user: ${answer.status} ${JSON.stringify(body)}`,
    )
  }
  return body.token
}
