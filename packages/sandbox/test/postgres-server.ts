import pg from 'pg'
import type { TestProject } from 'vitest/node'
import type { LocalPostgres } from '../../../scripts/local-postgres'
import { useRunPostgres } from '../../../scripts/postgres-server-setup'
import { openSqlDatabase } from '../src/storage/sql/open-database'

/** The database on the run's PostgreSQL server that holds the sandbox's tables, and no rows. */
export const templateDatabase = 'sandbox_template'

// The sandbox's projects (in memory, on PostgreSQL) run this setup in Vitest's process, on the
// server other packages' projects may have started first.
const shared = globalThis as { chargekitSandboxTemplates?: WeakMap<LocalPostgres, Promise<void>> }

/**
 * The sandbox's tables, made once per server in a template database: a test's database is a copy
 * of it, made in a moment, where creating the tables in each would take a while.
 */
function templateOn(postgres: LocalPostgres): Promise<void> {
  shared.chargekitSandboxTemplates ??= new WeakMap()
  const templates = shared.chargekitSandboxTemplates
  let made = templates.get(postgres)
  if (made === undefined) {
    made = (async () => {
      const template = await createDatabase(postgres.url, templateDatabase)
      await (await openSqlDatabase({ database: template.url })).close()
    })()
    templates.set(postgres, made)
  }
  return made
}

/**
 * Vitest globalSetup: the run's throw-away PostgreSQL server (scripts/postgres-server-setup.ts),
 * handed to test files as `inject('postgresUrl')`, each of them making its own databases on it,
 * with the sandbox's template database. Without PostgreSQL on the machine (outside CI) there is
 * none and the URL is undefined: the PostgreSQL store project then does not exist, and the other
 * tests that need it are skipped.
 */
export default async function startPostgresServer(project: TestProject) {
  const { postgres, release } = await useRunPostgres()
  try {
    if (postgres !== undefined) await templateOn(postgres)
  } catch (error) {
    await release()
    throw error
  }
  project.provide('postgresUrl', postgres?.url)
  return release
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
  await onServer(
    serverUrl,
    `CREATE DATABASE ${name}${template === undefined ? '' : ` TEMPLATE ${template}`}`,
  )
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}
