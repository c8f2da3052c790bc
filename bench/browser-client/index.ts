// bench/browser-client: the size a checkout page pays for @chargekit/client/browser, the built
// entry bundled with everything it imports, minified and gzipped, against its 8 KB budget; and
// the server client's entry the same way, against its 20 KB budget.
// Run: pnpm --filter @chargekit/client... build && pnpm exec tsx bench/browser-client/index.ts
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { reportRatio } from '../support/report'

const browserBudgetBytes = 8 * 1024
const serverBudgetBytes = 20 * 1024

/** Everything an entry exports (`export *`), bundled for browsers, minified, then gzipped. */
async function bundleSize(entry: string): Promise<number> {
  const result = await build({
    stdin: { contents: `export * from '${entry}'`, resolveDir: import.meta.dirname },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error('esbuild produced no output')
  return gzipSync(output.contents, { level: 9 }).length
}

const browserBytes = await bundleSize('@chargekit/client/browser')
reportRatio(
  'browser client bundle (min+gzip, with dependencies)',
  browserBytes,
  browserBudgetBytes,
  { atMost: 1 },
  ' bytes',
)
reportRatio(
  'server client bundle (min+gzip, with dependencies)',
  await bundleSize('@chargekit/client'),
  serverBudgetBytes,
  { atMost: 1 },
  ' bytes',
)
