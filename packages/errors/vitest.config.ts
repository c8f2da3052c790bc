import { chargekitProject } from '../../vitest.shared.ts'

export default chargekitProject('errors')
