import { defineChargekitBuild } from '../../tsup.base'

// The Idempotency-Key rule is its own entry, without zod, for the browser client.
export default defineChargekitBuild({ entry: ['src/index.ts', 'src/idempotency-key.ts'] })
