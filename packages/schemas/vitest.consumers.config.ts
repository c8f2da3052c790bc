import { defineConfig } from 'vitest/config'

/** Tests of the packed packages as an npm app installs them, on each zod it supports. */
export const packedConsumerTests = ['test/consumers.test.ts']

/**
 * `check:package`'s run of the consumer tests: plain Node resolution, since they load the
 * packages from the apps' `node_modules`, never from the workspace's sources.
 */
export default defineConfig({
  test: {
    name: 'schemas (packed)',
    environment: 'node',
    include: packedConsumerTests,
    reporters: ['default', '../../scripts/vitest-summary-reporter.ts'],
  },
})
