import { chargekitProject } from '../../vitest.shared.ts'

export default chargekitProject('example-processor', { testTimeout: 20_000 })
