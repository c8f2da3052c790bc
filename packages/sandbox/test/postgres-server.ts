import type { TestProject } from 'vitest/node'
import { type LocalPostgres, startLocalPostgres } from '../../../scripts/local-postgres'

// The sandbox's projects (in memory, on PostgreSQL) run this setup in the same process: they
// share one server, started by the first and stopped when the last one ends.
const shared = globalThis as { chargekitPostgres?: Promise<LocalPostgres | undefined> }
let users = 0

/**
 * Vitest globalSetup: one throw-away PostgreSQL server for the whole run, handed to test files
 * as `inject('postgresUrl')`, each of them making its own databases on it. Without PostgreSQL on
 * the machine (outside CI) there is none and the URL is undefined: the PostgreSQL store project
 * then does not exist, and the other tests that need it are skipped.
 */
export default async function startPostgresServer(project: TestProject) {
  users++
  shared.chargekitPostgres ??= startLocalPostgres()
  const postgres = await shared.chargekitPostgres
  project.provide('postgresUrl', postgres?.url)
  return async () => {
    if (--users > 0) return
    delete shared.chargekitPostgres
    await postgres?.stop()
  }
}
