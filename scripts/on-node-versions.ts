// Runs a command once on each Node.js major version given, and fails when any run fails:
//   tsx scripts/on-node-versions.ts 20 22 24 -- pnpm run test:node
// The machine's own Node serves its major; the others come from the npm registry's
// `node-<platform>-<arch>` packages (the official binaries), installed once into the workspace's
// tool cache. Each run gets that Node first on PATH, so every `node` the command starts (pnpm's
// scripts, turbo's tasks, vitest, the release rehearsal's registry and npm) is that version; on
// another Node than the machine's, turbo reruns its cached tasks, which it does not key by Node
// version.
import { spawnSync } from 'node:child_process'
import { delimiter, dirname, join } from 'node:path'
import { cachedPackage } from './cached-package'

const separator = process.argv.indexOf('--')
const majors = process.argv.slice(2, separator === -1 ? undefined : separator)
const command = separator === -1 ? [] : process.argv.slice(separator + 1)
if (majors.length === 0 || command.length === 0 || majors.some((major) => !/^\d+$/.test(major))) {
  console.error('Usage: tsx scripts/on-node-versions.ts <major>... -- <command> [args...]')
  process.exit(2)
}

/** The `node` executable of `major`: this one, or the registry's build for this platform. */
async function nodeOf(major: string): Promise<string> {
  if (process.versions.node.split('.')[0] === major) return process.execPath
  const platform = process.platform === 'win32' ? 'win' : process.platform
  const name = `node-${platform}-${process.arch}`
  const folder = await cachedPackage(`${name}@${major}`)
  return join(folder, 'node_modules', name, 'bin', platform === 'win' ? 'node.exe' : 'node')
}

const results: { version: string; status: 'passed' | 'failed'; minutes: number }[] = []
for (const major of majors) {
  const node = await nodeOf(major)
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
  if (!version.startsWith(`v${major}.`)) {
    throw new Error(`${node} is ${version || 'not runnable'}, not Node.js ${major}`)
  }
  console.log(`\n━━━ Node.js ${version}: ${command.join(' ')}\n`)
  const started = performance.now()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`,
  }
  if (node !== process.execPath) env.TURBO_FORCE = 'true'
  const { status } = spawnSync(command[0] as string, command.slice(1), { stdio: 'inherit', env })
  results.push({
    version,
    status: status === 0 ? 'passed' : 'failed',
    minutes: (performance.now() - started) / 60_000,
  })
}

console.log(`\n━━━ ${command.join(' ')}, on each Node.js:`)
for (const { version, status, minutes } of results) {
  console.log(`  ${version.padEnd(10)} ${status.padEnd(7)} ${minutes.toFixed(1)} min`)
}
process.exit(results.every((result) => result.status === 'passed') ? 0 : 1)
