import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `chargekit` bin bundled from source for this run (see bundle-cli.e2e-setup.ts). */
    chargekitCli: string
  }
}

/**
 * Vitest globalSetup: bundles the bin from source, workspace packages included, into one file,
 * as tsup bundles it for npm. A process then starts in a fifth of the time it takes to compile
 * the sources on the fly, and the tests spawn dozens.
 */
export default async function setup(project: TestProject) {
  const folder = await mkdtemp(join(tmpdir(), 'chargekit-cli-'))
  const outfile = join(folder, 'cli.mjs')
  await build({
    entryPoints: [fileURLToPath(new URL('../src/cli.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@chargekit/source'],
    logLevel: 'warning',
  })
  project.provide('chargekitCli', outfile)
  return () => rm(folder, { recursive: true, force: true })
}
