import { fileURLToPath } from 'node:url'
import { defineProject, type ViteUserConfig } from 'vitest/config'

/**
 * Tests run on the packages' TypeScript source: the `@chargekit/source` export condition
 * points each workspace package at `src/index.ts`, so no build is needed first.
 */
const sourceConditions = ['@chargekit/source', 'import', 'module', 'node', 'default']
const nodeConditions = ['@chargekit/source', 'node']

const propertySeedSetup = fileURLToPath(
  new URL('./scripts/property-seed-setup.ts', import.meta.url),
)

export function chargekitProject(name: string, test: NonNullable<ViteUserConfig['test']> = {}) {
  return defineProject({
    resolve: { conditions: sourceConditions },
    // Vitest also hands the SSR conditions to Node (`--conditions`) for the dependencies Node
    // loads itself: with `import` among them, a CommonJS `require` of a dual package (pg's
    // `require('pg-pool')`) would get its ESM build. Vite adds `import`/`require` per import.
    ssr: { resolve: { conditions: nodeConditions, externalConditions: nodeConditions } },
    test: {
      name,
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      setupFiles: [propertySeedSetup],
      ...test,
    },
  })
}
