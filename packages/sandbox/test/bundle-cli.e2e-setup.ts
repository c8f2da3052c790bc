import { rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import type { TestProject } from 'vitest/node'
import { removeFoldersOfEndedRuns } from '../../../scripts/ended-runs'
import { inlinedMigrations, prebundledBrowserCode } from '../tsup.config'

declare module 'vitest' {
  export interface ProvidedContext {
    /** `chargekit-sandbox` bundled from source for this run (see bundle-cli.e2e-setup.ts). */
    sandboxCli: string
  }
}

const packageDir = fileURLToPath(new URL('..', import.meta.url))

/**
 * Vitest globalSetup: bundles `src/cli.ts` with the workspace packages it imports, as tsup builds
 * the bin for npm. The tests that run the CLI in its own process start it in a fraction of the
 * time compiling the sources on the fly (tsx) takes, about twenty times a run.
 *
 * The bundle is written inside the package (under node_modules/.cache) so that Node resolves its
 * npm dependencies, left outside the bundle, from the package's own node_modules, as an
 * installed bin would.
 */
export default async function setup(project: TestProject) {
  const cache = `${packageDir}node_modules/.cache`
  // A run that was killed left its bundle behind: runs whose process is gone need theirs no more.
  await removeFoldersOfEndedRuns(cache, /^chargekit-sandbox-cli-(\d+)$/)
  const folder = `${cache}/chargekit-sandbox-cli-${process.pid}`
  await build({
    entryPoints: { cli: `${packageDir}src/cli.ts` },
    outdir: folder,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // In chunks, as tsup splits the published build: what only starting a sandbox needs is
    // loaded then, so that help and a wrong command line are answered without it.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@chargekit/source'],
    // The dashboard's browser code is bundled here once, as in the published build, instead of
    // by every process on its first page; the migrations go in, as they do there.
    plugins: [npmPackagesOutside(), prebundledBrowserCode(), inlinedMigrations()],
    logLevel: 'warning',
  })
  project.provide('sandboxCli', `${folder}/cli.mjs`)
  return () => rm(folder, { recursive: true, force: true })
}

/** Workspace packages go in the bundle (from source); npm packages stay imports. */
function npmPackagesOutside(): Plugin {
  return {
    name: 'npm-packages-outside',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, ({ path }) =>
        path.startsWith('@chargekit/') ? undefined : { path, external: true },
      )
    },
  }
}
