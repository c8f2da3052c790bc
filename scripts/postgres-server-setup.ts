import type { TestProject } from 'vitest/node'
import { type LocalPostgres, startLocalPostgres } from './local-postgres'
import type {} from './provided-context'

// Vitest runs every project's global setups in its own process: the projects that use this one
// share one server, started by the first and stopped when the last one ends.
const shared = globalThis as {
  chargekitPostgres?: { server: Promise<LocalPostgres | undefined>; users: number }
}

/**
 * The run's throw-away PostgreSQL server (see startLocalPostgres), started on first use; undefined
 * where PostgreSQL is not installed (outside CI). `release()` stops it after its last user.
 */
export async function useRunPostgres(): Promise<{
  postgres: LocalPostgres | undefined
  release(): Promise<void>
}> {
  shared.chargekitPostgres ??= { server: startLocalPostgres(), users: 0 }
  const run = shared.chargekitPostgres
  run.users++
  const postgres = await run.server
  return {
    postgres,
    async release() {
      if (--run.users > 0) return
      if (shared.chargekitPostgres === run) delete shared.chargekitPostgres
      await postgres?.stop()
    },
  }
}

/**
 * Vitest globalSetup: hands the run's PostgreSQL server to the project's test files as
 * `inject('postgresUrl')`, so they make their databases or tables on it instead of each starting
 * a cluster of its own. Undefined without PostgreSQL on the machine: those tests are skipped.
 */
export default async function postgresServerSetup(project: TestProject) {
  const { postgres, release } = await useRunPostgres()
  project.provide('postgresUrl', postgres?.url)
  return release
}
