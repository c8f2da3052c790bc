import { defineChargekitBuild } from '../../tsup.base'

// Three entries: the server client, the public-key client for browsers (no zod), and the
// Node-only transport.
export default defineChargekitBuild({ entry: ['src/index.ts', 'src/browser.ts', 'src/node.ts'] })
