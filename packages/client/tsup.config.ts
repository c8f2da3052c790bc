import { defineChargekitBuild } from '../../tsup.base'

// The server client (with its Node variant, whose default transport is node:http), the
// public-key client for browsers (no zod), and the Node-only transport.
export default defineChargekitBuild({
  entry: ['src/index.ts', 'src/index.node.ts', 'src/browser.ts', 'src/node.ts'],
})
