import { rerunProject } from '../../vitest.shared'

/**
 * The client's test files that send calls through `testClient` over HTTP, run a second time with
 * every test client on the `node:http` transport: retries, timeouts, aborts, errors and answers
 * must not depend on the transport. Files where the transport plays no part run once, in the
 * `client` project: options, bundles, browsers, and the catalogue's hundreds of calls, which go
 * to the sandbox in-process.
 */
const throughTestClients = [
  'test/errors.test.ts',
  'test/faults.test.ts',
  'test/logger.test.ts',
  'test/pagination.test.ts',
  'test/payment-methods.test.ts',
  'test/production-endpoints.test.ts',
  'test/raw-request.test.ts',
  'test/resources.test.ts',
  'test/server-errors.test.ts',
]

export const clientNodeTransportProject = rerunProject(
  'client (node transport)',
  'packages/client',
  throughTestClients,
  { env: { CHARGEKIT_TEST_TRANSPORT: 'node' } },
)
