import { defineChargekitBuild } from '../../tsup.base'

// Two entries: the server client, and the public-key client for browsers (no zod).
export default defineChargekitBuild({ entry: ['src/index.ts', 'src/browser.ts'] })
