import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import type { LocalPostgres } from '../../../scripts/local-postgres'
import { useRunPostgres } from '../../../scripts/postgres-server-setup'
import { openSqlDatabase } from '../src/storage/sql/open-database'

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The database on the run's PostgreSQL server that holds the sandbox's tables and no rows,
     * for test databases to copy; undefined without a server.
     */
    sandboxTemplate: string | undefined
  }
}

interface Template {
  made: Promise<{ name: string; drop(): Promise<void> }>
  /** The projects using it: the last one to end drops it. */
  users: number
}

// Every project with the sandbox's files (the main one, the end-to-end one) runs this setup in
// Vitest's process, on the server another project may have started first.
const shared = globalThis as { chargekitSandboxTemplates?: WeakMap<LocalPostgres, Template> }

/**
 * The sandbox's tables, made once per server in a template database: a test's database is a copy
 * of it, made in a moment, where creating the tables in each would take a while. Its name is this
 * run's own, and it is dropped when the run ends: a server given as TEST_DATABASE_URL outlives a
 * run, and may serve two at once.
 */
async function useTemplate(
  postgres: LocalPostgres,
): Promise<{ name: string; release(): Promise<void> }> {
  shared.chargekitSandboxTemplates ??= new WeakMap()
  const templates = shared.chargekitSandboxTemplates
  let template = templates.get(postgres)
  if (template === undefined) {
    template = {
      made: (async () => {
        const name = `sandbox_template_${randomUUID().replaceAll('-', '')}`
        const created = await createDatabase(postgres.url, name)
        await (await openSqlDatabase({ database: created.url })).close()
        return { name, drop: created.drop }
      })(),
      users: 0,
    }
    templates.set(postgres, template)
  }
  const using = template
  using.users++
  const { name, drop } = await using.made.catch((error: unknown) => {
    using.users--
    throw error
  })
  return {
    name,
    async release() {
      if (--using.users > 0) return
      templates.delete(postgres)
      await drop()
    },
  }
}

/**
 * Vitest globalSetup: the run's throw-away PostgreSQL server (scripts/postgres-server-setup.ts),
 * handed to test files as `inject('postgresUrl')`, each of them making its own databases on it,
 * with the sandbox's template database (`inject('sandboxTemplate')`). Without PostgreSQL on the
 * machine (outside CI) there is neither and both are undefined: the store files then run on the
 * embedded database instead (see onEachStore), and the other tests that need PostgreSQL are
 * skipped.
 */
export default async function startPostgresServer(project: TestProject) {
  const { postgres, release } = await useRunPostgres()
  let template: Awaited<ReturnType<typeof useTemplate>> | undefined
  try {
    if (postgres !== undefined) template = await useTemplate(postgres)
  } catch (error) {
    await release()
    throw error
  }
  project.provide('postgresUrl', postgres?.url)
  project.provide('sandboxTemplate', template?.name)
  return async () => {
    try {
      await template?.release()
    } finally {
      await release()
    }
  }
}

/**
 * Creates database `name` on the server at `serverUrl`, a copy of `template` when given;
 * `drop()` removes it again.
 */
export async function createDatabase(
  serverUrl: string,
  name: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = adminOn(serverUrl)
  const copiesByFile = await admin.copiesByFile.catch((error: unknown) =>
    forget(serverUrl, admin, error),
  )
  const strategy = copiesByFile ? ' STRATEGY FILE_COPY' : ''
  await admin.pool.query(
    `CREATE DATABASE ${name}${template === undefined ? '' : ` TEMPLATE ${template}`}${strategy}`,
  )
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      await admin.pool.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

interface Admin {
  pool: pg.Pool
  /** Whether CREATE DATABASE takes a STRATEGY (PostgreSQL 15 and later). */
  copiesByFile: Promise<boolean>
}

/**
 * The connections that make and drop a server's test databases, shared by everything in one
 * thread that makes them: the test files of a worker, or the global setup. A connection is a
 * process on the server, which takes it 13–16 ms of CPU to start on a two-core machine: a
 * connection per statement made 2 of the 10 processes a test database cost. Idle ones close
 * after ten seconds, and never keep a worker from ending.
 */
const admins = new Map<string, Admin>()

function adminOn(serverUrl: string): Admin {
  let admin = admins.get(serverUrl)
  if (admin === undefined) {
    const pool = new pg.Pool({
      connectionString: serverUrl,
      max: 4,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    })
    // An idle connection the server ends (the run's server stops at its end) is only dropped.
    pool.on('error', () => {})
    // Copied file by file, not page by page through the WAL (the default since PostgreSQL 15,
    // which logs every page of the 8 MB template): over a run of the main suite, the server
    // spent 2.4–3.0 s less CPU (process accounting, two pairs of runs). FILE_COPY checkpoints
    // instead, which costs little on a test server that does not sync to disk.
    const copiesByFile = pool
      .query<{ server_version_num: string }>('SHOW server_version_num')
      .then(({ rows }) => Number(rows[0]?.server_version_num) >= 150_000)
    admin = { pool, copiesByFile }
    admins.set(serverUrl, admin)
  }
  return admin
}

/** Drops the server's connections after a failure, so the next database tries afresh. */
function forget(serverUrl: string, admin: Admin, error: unknown): never {
  if (admins.get(serverUrl) === admin) {
    admins.delete(serverUrl)
    void admin.pool.end().catch(() => {})
  }
  throw error
}
