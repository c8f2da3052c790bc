import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { chown, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { databaseTempFolder } from './database-temp-dir'
import { freePort } from './free-port'

const run = promisify(execFile)

export interface LocalPostgres {
  url: string
  stop(): Promise<void>
}

/**
 * A throw-away PostgreSQL server for tests: TEST_DATABASE_URL when set, otherwise a fresh cluster
 * in a temp dir (in memory where there is room, see databaseTempDir) on a free loopback port, from
 * PostgreSQL's server binaries under /usr/lib/postgresql. Resolves to undefined when neither is
 * possible, so the caller skips its PostgreSQL tests, except in CI (CI=true), where PostgreSQL is
 * installed on purpose and those tests must never be skipped: there it throws, saying why.
 */
export async function startLocalPostgres(): Promise<LocalPostgres | undefined> {
  const given = process.env.TEST_DATABASE_URL
  if (given) return { url: given, stop: async () => {} }
  let reason: string
  try {
    const started = await startCluster()
    if (typeof started !== 'string') return started
    reason = started
  } catch (error) {
    reason = `starting it failed: ${error instanceof Error ? error.message : String(error)}`
  }
  if (process.env.CI === 'true') {
    throw new Error(
      `CI=true, so the PostgreSQL tests must run, but no PostgreSQL server could be started (${reason}). Install PostgreSQL's server (Debian: apt-get install postgresql) or set TEST_DATABASE_URL.`,
    )
  }
  return undefined
}

/**
 * Whether PostgreSQL tests can run here without starting anything: a server is given, the
 * server binaries are installed, or this is CI (where their absence is an error, not a skip).
 */
export function postgresAvailable(): boolean {
  return (
    Boolean(process.env.TEST_DATABASE_URL) ||
    process.env.CI === 'true' ||
    findPostgresBin() !== undefined
  )
}

/** A running cluster, or why there can be none here. */
async function startCluster(): Promise<LocalPostgres | string> {
  const bin = findPostgresBin()
  if (!bin) return 'no initdb under /usr/lib/postgresql/*/bin'
  const dir = await databaseTempFolder('pg')
  // PostgreSQL refuses to run as root: as root, run it as the 'postgres' system user.
  const asRoot = process.getuid?.() === 0
  const postgresUser = asRoot ? await idsOf('postgres') : undefined
  if (asRoot && !postgresUser) return "running as root and there is no 'postgres' user"
  if (postgresUser) await chown(dir, postgresUser.uid, postgresUser.gid)
  const exec = (command: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args])
      : run(join(bin, command), args)
  const data = join(dir, 'data')
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`
  await exec('pg_ctl', ['-D', data, '-o', options, '-w', '-l', join(dir, 'log'), 'start'])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {})
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** The folder of the newest PostgreSQL server binaries installed (Debian's layout). */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  return versions
    .map((version) => join(root, version, 'bin'))
    .find((bin) => existsSync(join(bin, 'initdb')))
}

async function idsOf(user: string): Promise<{ uid: number; gid: number } | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])])
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
  } catch {
    return undefined
  }
}
