import { defineChargekitBuild } from '../../tsup.base'

// The Idempotency-Key rule, the event's object kinds, the response checks and the operation table
// are entries of their own, without zod, for code that counts its bytes: the clients and the
// sandbox's dashboard. The OpenAPI document has its own entry too: only tools need it.
export default defineChargekitBuild({
  entry: [
    'src/index.ts',
    'src/idempotency-key.ts',
    'src/event-objects.ts',
    'src/response-checks.ts',
    'src/operations.ts',
    'src/openapi.ts',
  ],
})
