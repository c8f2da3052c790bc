import { chargekitProject } from '../../vitest.shared'

export default chargekitProject('cli', { globalSetup: ['./test/bundle-cli-setup.ts'] })
