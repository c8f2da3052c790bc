import { chargekitProject } from '../../vitest.shared'

export default chargekitProject('example-processor', { testTimeout: 20_000 })
