import { defineChargekitBuild } from '../../tsup.base'

export default defineChargekitBuild({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', testing: 'src/testing/index.ts' },
})
