import { defineChargekitBuild } from '../../tsup.base'

// The Idempotency-Key rule and the event's object kinds are entries of their own, without zod,
// for browser code: the browser client and the sandbox's dashboard.
export default defineChargekitBuild({
  entry: ['src/index.ts', 'src/idempotency-key.ts', 'src/event-objects.ts'],
})
