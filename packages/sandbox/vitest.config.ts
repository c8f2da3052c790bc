import { chargekitProject } from '../../vitest.shared'

export default chargekitProject('sandbox', {
  // The CLI as a bin, a PostgreSQL server and an embedded database's folder, made once per run
  // for the tests that start sandboxes on them.
  globalSetup: [
    './test/bundle-cli.e2e-setup.ts',
    './test/postgres-server.ts',
    './test/data-folder-setup.ts',
  ],
})
