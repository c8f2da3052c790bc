import { defineChargekitBuild } from '../../tsup.base'

export default defineChargekitBuild({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', testing: 'src/testing/index.ts' },
  // The entries share one copy of the sandbox in CommonJS too (ESM splits by default): the
  // conformance kit recognises the built-in processors and charge types a user imports from
  // the main entry by identity.
  splitting: true,
})
