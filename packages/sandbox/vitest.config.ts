import { chargekitProject } from '../../vitest.shared.ts'

export default chargekitProject('sandbox', {
  // The CLI as a bin, a PostgreSQL server and an embedded database's folder, made once per run
  // for the tests that start sandboxes on them.
  globalSetup: [
    './test/bundle-cli.e2e-setup.ts',
    './test/postgres-server.ts',
    './test/data-folder-setup.ts',
  ],
  // Many files run their tests on PostgreSQL and an embedded database too (onEachStore), where
  // every step of a flow is a few database round trips: on a busy two-core machine a multi-step
  // test takes 2–5 s, at Vitest's default 5 s. The limit is there to end a test that hangs.
  testTimeout: 30_000,
})
