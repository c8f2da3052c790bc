import { chargekitProject } from '../../vitest.shared'

export default chargekitProject('example', { testTimeout: 60_000, hookTimeout: 120_000 })
