import { defineChargekitBuild } from '../../tsup.base'

export default defineChargekitBuild({ entry: ['src/index.ts', 'src/cli.ts'] })
