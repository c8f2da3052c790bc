import { execFileSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { join, posix } from 'node:path'
import type { Release } from './maintainer'

/** One published package as a user downloads it. */
export interface Tarball extends Release {
  packedBytes: number
  files: string[]
  /** What is wrong with it; empty when nothing is. */
  problems: string[]
}

// Tests and their fixtures stay in the repository: users download every byte of a tarball.
const notForUsers = [
  /(^|\/)(test|tests|__tests__|fixtures?)\//,
  /\.(test|spec)\.[cm]?[jt]sx?$/,
  /(^|\/)(vitest|tsup)\.[\w.]*config\.[cm]?[jt]s$/,
]

/** Reads the tarball Verdaccio stored for `release` and checks what a user would trip over. */
export function inspectTarball(storage: string, release: Release): Tarball {
  const base = release.name.split('/').pop() as string
  const file = join(storage, release.name, `${base}-${release.version}.tgz`)
  const files = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })
    .split('\n')
    .filter((entry) => entry !== '' && !entry.endsWith('/'))
    .map((entry) => entry.replace(/^package\//, ''))
  const read = (path: string) =>
    execFileSync('tar', ['-xzOf', file, `package/${path}`], { encoding: 'utf8' })
  const problems = [
    ...files
      .filter((path) => notForUsers.some((rule) => rule.test(path)))
      .map((path) => `ships ${path}`),
    ...manifestProblems(JSON.parse(read('package.json'))),
    ...(files.includes('README.md') ? brokenLinks(read('README.md'), files) : ['has no README.md']),
    ...(files.includes('CHANGELOG.md') ? [] : ['has no CHANGELOG.md']),
  ]
  return { ...release, packedBytes: statSync(file).size, files, problems }
}

type Manifest = {
  repository?: { url?: string }
  engines?: { node?: string }
  license?: string
} & Partial<
  Record<'dependencies' | 'peerDependencies' | 'optionalDependencies', Record<string, string>>
>

function manifestProblems(manifest: Manifest): string[] {
  const problems: string[] = []
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (range.startsWith('workspace:')) problems.push(`${field}.${name} is ${range}`)
    }
  }
  if (!manifest.repository?.url) problems.push('package.json has no repository.url')
  if (!manifest.engines?.node) problems.push('package.json has no engines.node')
  if (!manifest.license) problems.push('package.json has no license')
  return problems
}

/**
 * Relative links of the README that point at nothing in the tarball: on npm's page and in
 * node_modules they lead nowhere. Links to the repository use its URL.
 */
function brokenLinks(readme: string, files: readonly string[]): string[] {
  const targets = [...readme.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(
    (match) => match[1] ?? '',
  )
  return targets
    .filter((target) => !/^([a-z][a-z\d+.-]*:|#)/i.test(target))
    .filter((target) => {
      const path = posix.normalize(target.split('#')[0] as string).replace(/\/$/, '')
      return !files.some((file) => file === path || file.startsWith(`${path}/`))
    })
    .map((target) => `README.md links to ${target}, which is not in the package`)
}
