import { configDefaults } from 'vitest/config'
import { chargekitProject } from '../../vitest.shared.ts'
import { packedConsumerTests } from './vitest.consumers.config.ts'

// The consumer tests install the built, packed packages from npm into throw-away apps: they run
// with the package checks (`pnpm check:packages`), after the build, not with the source tests.
export default chargekitProject('schemas', {
  exclude: [...configDefaults.exclude, ...packedConsumerTests],
})
