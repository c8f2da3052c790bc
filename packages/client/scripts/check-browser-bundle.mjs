#!/usr/bin/env node
// Part of `check:package`, after the build: the browser entry as a checkout page ships it (the
// built file bundled with everything it imports, minified and gzipped) must hold no zod and stay
// within 8 KB. A shared helper imported from the wrong package once pulled zod (about 30 KB
// gzipped) into it, which no test of behaviour can see.
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const budgetBytes = 8 * 1024
const result = await build({
  entryPoints: [new URL('../dist/browser.js', import.meta.url).pathname],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  metafile: true,
  write: false,
  logLevel: 'silent',
})
const zodFiles = Object.keys(result.metafile.inputs).filter((path) =>
  /node_modules\/zod\//.test(path),
)
const bytes = gzipSync(result.outputFiles[0].contents, { level: 9 }).length
const problems = [
  ...(zodFiles.length > 0
    ? [`it bundles zod (${zodFiles.length} files, such as ${zodFiles[0]})`]
    : []),
  ...(bytes > budgetBytes ? [`it is ${bytes} B min+gzip, over the ${budgetBytes} B budget`] : []),
]
if (problems.length > 0) {
  console.error(`@chargekit/client/browser: ${problems.join('; ')}. Import zod-free helpers only.`)
  process.exit(1)
}
console.log(`@chargekit/client/browser: ${bytes} B min+gzip, no zod (budget ${budgetBytes} B)`)
