import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const entry = fileURLToPath(new URL('../browser/payment-form.ts', import.meta.url))

let bundled: Promise<string> | undefined

/**
 * The order page's card script: TypeScript in `src/browser/`, bundled with the browser client
 * for the browser once per process, on first use. Built at run time so `start` and `demo` need
 * no build step; `@chargekit/source` lets it bundle the workspace packages from their source.
 */
export function checkoutScript(): Promise<string> {
  if (!bundled) {
    bundled = build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      conditions: ['@chargekit/source'],
      write: false,
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0]?.text ?? '')
    // A failed build is not kept: the next request tries again (and its error reaches the log).
    bundled.catch(() => {
      bundled = undefined
    })
  }
  return bundled
}
