import { chargekitProject } from '../../vitest.shared.ts'

// The SQL delivery store's tests make their tables on the run's PostgreSQL server.
const project = chargekitProject('webhooks', {
  globalSetup: ['../../scripts/postgres-server-setup.ts'],
})
// Vitest also passes the SSR conditions to Node as `--conditions`. With the shared `import`
// among them, Express's router `require('is-promise')` gets that package's ESM build (its
// exports map lists `import` first) and fails. Without it, Vite still adds import/require per
// import kind, and `@chargekit/source` keeps the workspace packages on their TypeScript source.
const conditions = ['@chargekit/source', 'node', 'default']
project.ssr = { ...project.ssr, resolve: { conditions, externalConditions: conditions } }

export default project
