import { defineChargekitBuild } from '../../tsup.base'

// The Idempotency-Key rule, the event's object kinds and the response checks are entries of their
// own, without zod, for code that counts its bytes: the clients and the sandbox's dashboard.
export default defineChargekitBuild({
  entry: [
    'src/index.ts',
    'src/idempotency-key.ts',
    'src/event-objects.ts',
    'src/response-checks.ts',
  ],
})
