import type { TestProject } from 'vitest/node'
import { startLocalPostgres } from '../../../scripts/local-postgres'

/** Global setup of the PostgreSQL test project: one throw-away server for the whole run. */
export default async function startPostgresServer(project: TestProject) {
  const postgres = await startLocalPostgres()
  if (postgres === undefined) throw new Error('No PostgreSQL server could be started')
  project.provide('postgresUrl', postgres.url)
  return () => postgres.stop()
}
