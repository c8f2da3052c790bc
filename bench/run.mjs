#!/usr/bin/env node
// Runs every benchmark under bench/<name>/index.ts (or only the names given) one after another,
// so their figures do not disturb each other. Each prints its ratios against its own baseline.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const benchDir = dirname(fileURLToPath(import.meta.url))
const available = readdirSync(benchDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(benchDir, entry.name, 'index.ts')))
  .map((entry) => entry.name)

const requested = process.argv.slice(2)
const unknown = requested.filter((name) => !available.includes(name))
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${available.join(', ')}`)
  process.exit(2)
}

for (const name of requested.length > 0 ? requested : available) {
  console.log(`\n=== bench/${name} ===`)
  execFileSync('pnpm', ['exec', 'tsx', join(benchDir, name, 'index.ts')], { stdio: 'inherit' })
}
