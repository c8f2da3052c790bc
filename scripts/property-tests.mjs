#!/usr/bin/env node
// Runs every property-based test file (those importing fast-check) once more on a fresh random
// seed, printed by the run, after the main suite ran them on the fixed one: new inputs every run,
// and any failure replays exactly with the seed it prints.
import { execFileSync, spawnSync } from 'node:child_process'

const files = execFileSync('git', ['grep', '-l', "from 'fast-check'", '--', '*.test.ts'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean)
const result = spawnSync('pnpm', ['exec', 'vitest', 'run', ...files], {
  stdio: 'inherit',
  env: { ...process.env, FC_SEED: process.env.FC_SEED ?? 'random' },
})
process.exit(result.status ?? 1)
