import { chargekitProject } from '../../vitest.shared'

const project = chargekitProject('example', { testTimeout: 60_000, hookTimeout: 120_000 })

// Vitest also hands ssr.resolve.conditions to the worker as `node --conditions …`, where Node
// applies them to require() too: with the shared 'import' condition, pg's `require('pg-pool')`
// gets pg-pool's ESM build and fails. Vite adds 'import'/'require' per import by itself, so the
// source condition plus Node's defaults are enough here (replaced, not merged).
const conditions = ['@chargekit/source', 'node', 'development|production']
if (project.ssr?.resolve) {
  project.ssr.resolve.conditions = conditions
  project.ssr.resolve.externalConditions = ['@chargekit/source', 'node']
}

export default project
