// The test command after its setup (`npm run test:all` runs it as `verify:all`): `test:node`'s
// steps on each Node.js version given, then `test:containers` on this one. Each step is one line
// with its time; its output goes to .logs/verify-all/ and is printed whole only when it fails.
// Fails when any step fails; a failed step ends its Node.js version's run (as `&&` would), the
// other versions still run, and the container check runs only once everything else passed. A step
// whose Node.js crashed inside V8 runs once more (see below).
//   tsx scripts/verify-all.ts 20 22 24
// The machine's own Node serves its major; the others come from the npm registry's
// `node-<platform>-<arch>` packages (the official binaries), installed once into the workspace's
// tool cache. Each run gets that Node first on PATH, so every `node` the steps start (pnpm's
// scripts, turbo's tasks, vitest, the release rehearsal's registry and npm) is that version; on
// another Node than the machine's, turbo reruns its cached tasks, which it does not key by Node
// version.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { cachedPackage } from './cached-package'
import { scriptSteps } from './script-steps'
import { createStepRunner, formatElapsed } from './step-runner.mjs'

const root = join(import.meta.dirname, '..')
const majors = process.argv.slice(2)
if (majors.length === 0 || majors.some((major) => !/^\d+$/.test(major))) {
  console.error('Usage: tsx scripts/verify-all.ts <major>...')
  process.exit(2)
}

/**
 * A Vitest step's summary, printed under its line: the tests counted, and Vitest's Duration (the
 * main suite's held to a minute).
 */
const testSummary = /^(Tests: \d+ passed|\s*Duration\s)/
const vitestSteps = new Set(['test', 'test:e2e'])

const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
}

/** The `node` executable of `major`: this one, or the registry's build for this platform. */
async function nodeOf(major: string): Promise<string> {
  if (process.versions.node.split('.')[0] === major) return process.execPath
  const platform = process.platform === 'win32' ? 'win' : process.platform
  const name = `node-${platform}-${process.arch}`
  const folder = await cachedPackage(`${name}@${major}`)
  return join(folder, 'node_modules', name, 'bin', platform === 'win' ? 'node.exe' : 'node')
}

const runner = createStepRunner({ logDir: join(root, '.logs', 'verify-all') })
const started = performance.now()
const failed: string[] = []
let steps = 0

for (const major of majors) {
  const node = await nodeOf(major)
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
  if (!version.startsWith(`v${major}.`)) {
    throw new Error(`${node} is ${version || 'not runnable'}, not Node.js ${major}`)
  }
  runner.heading(`Node.js ${version}`)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`,
  }
  if (node !== process.execPath) env.TURBO_FORCE = 'true'
  const names = scriptSteps(scripts, 'test:node')
  for (const [index, name] of names.entries()) {
    steps++
    const result = await runner.run({
      name,
      command: 'pnpm',
      args: ['run', name],
      env,
      logName: `node${major}-${name}`,
      ...(vitestSteps.has(name) ? { keep: testSummary } : {}),
      // V8 has a bug that now and then aborts a process compiling and freeing much WebAssembly,
      // as PGlite does (`Check failed: jit_page_->allocations_.erase(addr) == 1`, seen on
      // Node.js 24; https://github.com/nodejs/node/issues/64500). A crash of Node.js itself says
      // nothing about our code: the step runs once more, and a second crash fails it.
      rerunAfterV8Crash: true,
    })
    if (!result.ok) {
      failed.push(`${name} on Node.js ${major}`)
      const skipped = names.slice(index + 1)
      if (skipped.length > 0) runner.note(`not run on Node.js ${major}: ${skipped.join(', ')}`)
      break
    }
  }
}

if (failed.length === 0) {
  runner.heading(`This machine (Node.js ${process.version})`)
  steps++
  const containers = await runner.run({
    name: 'test:containers',
    command: 'pnpm',
    args: ['run', 'test:containers'],
  })
  if (!containers.ok) failed.push('test:containers')
} else {
  runner.note('not run: test:containers, which runs once every other step passed')
}

const took = formatElapsed((performance.now() - started) / 1000)
const logs = `logs in ${join('.logs', 'verify-all')}`
console.log(
  failed.length === 0
    ? `✓ ${steps} steps passed in ${took} (${logs})`
    : `✗ failed: ${failed.join('; ')}, after ${took} (each failure's output is above; ${logs})`,
)
process.exit(failed.length === 0 ? 0 : 1)
