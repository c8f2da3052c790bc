// The release, rehearsed end to end against a throw-away registry on 127.0.0.1:
// 1. Verdaccio starts with its storage in a temp folder;
// 2. the maintainer's release runs as the release workflow runs it (the changesets action's
//    `version` and `publish` commands of .github/workflows/release.yml), pointed at that registry
//    by configuration alone;
// 3. each published tarball is checked (no tests or fixtures, README links that resolve,
//    manifests without workspace ranges) and its packed size and file count reported;
// 4. a stranger installs from that registry in folders outside the workspace, with a clean HOME,
//    and runs the READMEs' commands as written: with npm (ES modules), pnpm and CommonJS.
// Run by `npm run test:all` (see package.json's `test:node`); alone: `pnpm test:release`.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strangerJourneys } from './release-rehearsal/journeys'
import { releaseAsMaintainer } from './release-rehearsal/maintainer'
import { type Registry, startRegistry } from './release-rehearsal/registry'
import { inspectTarball, type Tarball } from './release-rehearsal/tarballs'

const root = join(import.meta.dirname, '..')
const timings: { name: string; seconds: number }[] = []

async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  console.log(`\n▶ ${name}`)
  const started = performance.now()
  try {
    return await work()
  } finally {
    timings.push({ name, seconds: (performance.now() - started) / 1000 })
  }
}

/** The workspace's packages that are published: every `packages/*` not marked private. */
function publicPackages(): string[] {
  return readdirSync(join(root, 'packages'))
    .map((dir) => JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')))
    .filter((manifest: { private?: boolean }) => manifest.private !== true)
    .map((manifest: { name: string }) => manifest.name)
}

function printTarballs(tarballs: readonly Tarball[]) {
  console.log('\npackage                 version   packed     files')
  for (const { name, version, packedBytes, files } of tarballs) {
    const kb = `${(packedBytes / 1024).toFixed(1)} kB`
    console.log(
      `${name.padEnd(24)}${version.padEnd(10)}${kb.padStart(9)}  ${String(files.length).padStart(6)}`,
    )
  }
}

async function main() {
  const folder = await mkdtemp(join(tmpdir(), 'chargekit-release-'))
  const own = publicPackages()
  let registry: Registry | undefined
  let succeeded = false
  try {
    registry = await step('a throw-away registry (Verdaccio) on 127.0.0.1', () =>
      startRegistry(join(folder, 'registry'), own),
    )
    const { url, storage } = registry
    const maintainer = await step('the maintainer’s release, pointed at it', () =>
      releaseAsMaintainer(root, join(folder, 'maintainer'), registry as Registry),
    )
    console.log(
      `${maintainer.versioned ? 'versioned the pending changesets, then ' : ''}published ${maintainer.releases.map((release) => `${release.name}@${release.version}`).join(', ')}`,
    )
    const missing = own.filter(
      (name) => !maintainer.releases.some((release) => release.name === name),
    )
    if (missing.length > 0) throw new Error(`The release did not publish ${missing.join(', ')}`)

    const tarballs = maintainer.releases.map((release) => inspectTarball(storage, release))
    printTarballs(tarballs)
    const problems = tarballs.flatMap(({ name, problems }) =>
      problems.map((problem) => `${name} ${problem}`),
    )
    if (problems.length > 0)
      throw new Error(`The published packages are not right:\n${problems.join('\n')}`)

    await strangerJourneys(root, join(folder, 'stranger'), url, step)
    succeeded = true
  } catch (error) {
    console.error(
      `\nRelease rehearsal failed: ${error instanceof Error ? error.message : String(error)}`,
    )
    if (registry !== undefined) console.error(`Registry log:\n${registry.log().slice(-4000)}`)
    process.exitCode = 1
  } finally {
    await registry?.stop()
    console.log('\nRelease rehearsal steps:')
    for (const { name, seconds } of timings)
      console.log(`${seconds.toFixed(1).padStart(7)} s  ${name}`)
    if (succeeded) await rm(folder, { recursive: true, force: true })
    else console.error(`Kept for a look: ${folder}`)
  }
  console.log(succeeded ? '\nRelease rehearsal passed.' : '\nRelease rehearsal failed.')
}

await main()
