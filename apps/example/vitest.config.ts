import { chargekitProject } from '../../vitest.shared.ts'

export default chargekitProject('example', {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // The database tests run the shop's SQL on the run's PostgreSQL server too.
  globalSetup: ['../../scripts/postgres-server-setup.ts'],
})
