import { chargekitProject } from '../../vitest.shared'

export default chargekitProject('cli')
