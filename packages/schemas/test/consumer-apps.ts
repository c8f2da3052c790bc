import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)

const packagesDir = fileURLToPath(new URL('../..', import.meta.url))

/** What an app installs to use the schemas: the packages themselves and the client on top. */
const packedPackages = ['errors', 'schemas', 'client'] as const

// One folder per set of tarballs and zod versions: a second run with unchanged packages reuses
// the installed apps instead of installing again. Several worktrees may share this folder.
const cacheRoot = join(tmpdir(), 'chargekit-consumer-apps')
const staleAfterMs = 60 * 60 * 1000

/** The npm registry could not be reached to install zod; the message is npm's reason. */
export class RegistryUnreachableError extends Error {
  override name = 'RegistryUnreachableError'
}

/** A throw-away npm app with the packed packages and one zod version installed. */
export interface ConsumerApp {
  zodVersion: string
  dir: string
}

/**
 * Packs the packages (building those whose `dist` is missing or older than their sources) and
 * installs them with npm, like an app would, into one app per zod version.
 */
export async function prepareConsumerApps(zodVersions: readonly string[]): Promise<ConsumerApp[]> {
  for (const name of packedPackages) await buildIfStale(join(packagesDir, name))
  await mkdir(cacheRoot, { recursive: true })
  const staging = await mkdtemp(join(cacheRoot, 'staging-'))
  try {
    const tarballDir = join(staging, 'tarballs')
    await Promise.all(
      packedPackages.map((name) =>
        run('pnpm', ['pack', '--pack-destination', tarballDir], { cwd: join(packagesDir, name) }),
      ),
    )
    const tarballs = (await readdir(tarballDir)).sort()
    const hash = createHash('sha256').update(zodVersions.join(','))
    for (const tarball of tarballs) hash.update(await readFile(join(tarballDir, tarball)))
    const root = join(cacheRoot, hash.digest('hex').slice(0, 16))
    if (!existsSync(root)) {
      await removeStaleSets()
      try {
        await Promise.all(
          zodVersions.map((zodVersion) =>
            installApp(
              { zodVersion, dir: join(staging, `zod-${zodVersion}`) },
              tarballDir,
              tarballs,
            ),
          ),
        )
      } catch (error) {
        // npm words an unreachable registry in many ways (ERESOLVE among them, when zod's
        // manifest cannot be fetched), so ask the registry itself.
        await pingRegistry()
        throw error
      }
      // Complete sets appear at once; if another run got there first, its set is the same.
      await rename(staging, root).catch(() => {})
    }
    return zodVersions.map((zodVersion) => ({ zodVersion, dir: join(root, `zod-${zodVersion}`) }))
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

async function removeStaleSets(): Promise<void> {
  for (const entry of await readdir(cacheRoot)) {
    const path = join(cacheRoot, entry)
    const { mtimeMs } = await stat(path)
    if (Date.now() - mtimeMs > staleAfterMs) await rm(path, { recursive: true, force: true })
  }
}

async function buildIfStale(packageDir: string): Promise<void> {
  const built = await stat(join(packageDir, 'dist', 'index.js')).catch(() => undefined)
  if (built !== undefined && (await newestChange(join(packageDir, 'src'))) <= built.mtimeMs) return
  await run('pnpm', ['run', 'build'], { cwd: packageDir })
}

async function newestChange(dir: string): Promise<number> {
  let newest = 0
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs)
  }
  return newest
}

async function installApp(app: ConsumerApp, tarballDir: string, tarballs: string[]) {
  await mkdir(app.dir, { recursive: true })
  const dependencies: Record<string, string> = { zod: app.zodVersion }
  for (const tarball of tarballs) {
    const name = tarball.replace(/^chargekit-(.+)-\d+\.\d+\.\d+.*\.tgz$/, '@chargekit/$1')
    dependencies[name] = `file:${join(tarballDir, tarball)}`
  }
  await writeFile(
    join(app.dir, 'package.json'),
    JSON.stringify({ name: `consumer-zod-${app.zodVersion}`, private: true, dependencies }),
  )
  try {
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: app.dir })
  } catch (error) {
    const output = (error as { stderr?: string }).stderr ?? String(error)
    throw new Error(
      `npm install of the packed packages with zod ${app.zodVersion} failed:\n${output}`,
    )
  }
}

async function pingRegistry(): Promise<void> {
  try {
    await run('npm', ['ping'], { timeout: 30_000 })
  } catch (error) {
    const lines = ((error as { stderr?: string }).stderr || String(error)).split('\n')
    const cause = lines.find((line) => line.includes('FetchError')) ?? lines.find(Boolean)
    throw new RegistryUnreachableError(cause?.replace(/^npm error /, '') ?? 'npm ping failed')
  }
}
