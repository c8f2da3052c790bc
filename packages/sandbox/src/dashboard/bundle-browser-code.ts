import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** The page's script and stylesheet, as the browser gets them (before the catalogue goes in). */
export interface BrowserCode {
  script: string
  styles: string
}

const browserDirectory = fileURLToPath(new URL('./browser/', import.meta.url))

/**
 * Bundles `browser/` (TypeScript modules and one stylesheet) for the browser with esbuild.
 *
 * The published build calls this once, at build time, and ships its result in place of this
 * module (see the sandbox's `tsup.config.ts`), so the installed package needs no esbuild. Run
 * from source (the tests, the example shop), the dashboard calls it on its first request.
 */
export async function bundleBrowserCode(): Promise<BrowserCode> {
  const result = await build({
    entryPoints: {
      dashboard: `${browserDirectory}main.ts`,
      styles: `${browserDirectory}dashboard.css`,
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Workspace packages (`@chargekit/schemas/event-objects`) from their source, built or not.
    conditions: ['@chargekit/source'],
    // Two entries need an output directory to name their files, though nothing is written.
    outdir: 'out',
    write: false,
    logLevel: 'silent',
  })
  const output = (extension: string) =>
    result.outputFiles.find((file) => file.path.endsWith(extension))?.text ?? ''
  return { script: output('.js'), styles: output('.css') }
}
