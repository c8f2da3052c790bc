import { chargekitProject } from '../../vitest.shared.ts'

export default chargekitProject('cli', {
  globalSetup: ['./test/bundle-cli.e2e-setup.ts'],
  // Each test starts several real processes: on a busy machine one can take seconds to start.
  testTimeout: 20_000,
})
