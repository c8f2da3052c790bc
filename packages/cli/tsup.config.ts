import { defineChargekitBuild } from '../../tsup.base'

// A command, not a library: one ESM entry that Node runs, no declarations to ship.
export default defineChargekitBuild({ entry: ['src/cli.ts'], format: ['esm'], dts: false })
