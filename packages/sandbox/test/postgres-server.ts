import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { type LocalPostgres, startLocalPostgres } from '../../../scripts/local-postgres'
import { openSqlDatabase } from '../src/storage/sql/open-database'

// The sandbox's projects (in memory, on PostgreSQL) run this setup in the same process: they
// share one server, started by the first and stopped when the last one ends.
const shared = globalThis as { chargekitPostgres?: Promise<LocalPostgres | undefined> }
let users = 0

/** The database on the run's PostgreSQL server that holds the sandbox's tables, and no rows. */
export const templateDatabase = 'sandbox_template'

/**
 * The server, with the sandbox's tables made once in a template database: a test's database is
 * a copy of it, made in a moment, where creating the tables in each would take a while.
 */
async function startServer(): Promise<LocalPostgres | undefined> {
  const postgres = await startLocalPostgres()
  if (postgres === undefined) return undefined
  const template = await createDatabase(postgres.url, templateDatabase)
  await (await openSqlDatabase({ database: template.url })).close()
  return postgres
}

/**
 * Vitest globalSetup: one throw-away PostgreSQL server for the whole run, handed to test files
 * as `inject('postgresUrl')`, each of them making its own databases on it. Without PostgreSQL on
 * the machine (outside CI) there is none and the URL is undefined: the PostgreSQL store project
 * then does not exist, and the other tests that need it are skipped.
 */
export default async function startPostgresServer(project: TestProject) {
  users++
  shared.chargekitPostgres ??= startServer()
  const postgres = await shared.chargekitPostgres
  project.provide('postgresUrl', postgres?.url)
  return async () => {
    if (--users > 0) return
    delete shared.chargekitPostgres
    await postgres?.stop()
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
