import { defineChargekitBuild } from '../../tsup.base'

export default defineChargekitBuild()
