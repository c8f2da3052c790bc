import type { Plugin } from 'esbuild'
import { defineChargekitBuild } from '../../tsup.base'
import { type BrowserCode, bundleBrowserCode } from './src/dashboard/bundle-browser-code'
import { loadRendererScript } from './src/http/reference-renderer'
import { readMigrationFiles } from './src/storage/sql/migration-files'

export default defineChargekitBuild({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli.ts',
    testing: 'src/testing/index.ts',
    'test-cards': 'src/test-cards.ts',
  },
  // The entries share one copy of the sandbox in CommonJS too (ESM splits by default): the
  // conformance kit recognises the built-in processors and charge types a user imports from
  // the main entry by identity.
  splitting: true,
  esbuildPlugins: [prebundledBrowserCode(), inlinedReferenceRenderer(), inlinedMigrations()],
})

/**
 * The dashboard bundles its browser code on first use when run from source. The published
 * build bundles it here instead, once, and ships the result as the module's answer, so the
 * installed package neither needs esbuild nor reads files at run time.
 */
export function prebundledBrowserCode(): Plugin {
  let bundled: Promise<BrowserCode> | undefined
  return {
    name: 'prebundled-dashboard-browser-code',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]dashboard[\\/]bundle-browser-code\.ts$/ }, async () => {
        bundled ??= bundleBrowserCode()
        const code = JSON.stringify(await bundled)
        return {
          contents: `export async function bundleBrowserCode() { return ${code} }`,
          loader: 'js',
        }
      })
    },
  }
}

/**
 * The API reference's renderer (Redoc's standalone bundle) is read from Redoc's package when run
 * from source. The published build inlines it instead, in a chunk of its own that only `/docs`
 * loads, so the installed package needs neither Redoc nor its files.
 */
export function inlinedReferenceRenderer(): Plugin {
  return {
    name: 'inlined-reference-renderer',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]http[\\/]reference-renderer\.ts$/ }, async () => ({
        contents: `export async function loadRendererScript() { return ${JSON.stringify(await loadRendererScript())} }`,
        loader: 'js',
      }))
    },
  }
}

/**
 * The SQL stores' migrations are files, read from their folder when run from source. The
 * published build reads them here instead and ships their text in place of the module that
 * reads them, so the installed package reads no files at run time.
 */
export function inlinedMigrations(): Plugin {
  return {
    name: 'inlined-migrations',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]storage[\\/]sql[\\/]migration-files\.ts$/ }, () => ({
        contents: `export function readMigrationFiles() { return ${JSON.stringify(readMigrationFiles())} }`,
        loader: 'js',
      }))
    },
  }
}
