import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Registry } from './registry'
import { run, type Shell } from './shell'

/** A package version the release published, as its git tag names it. */
export interface Release {
  name: string
  version: string
}

export interface MaintainerRun {
  /** The workflow's version command ran: changesets were pending. */
  versioned: boolean
  releases: Release[]
  /** The copy of the workspace the release ran in. */
  workspace: string
}

const workflow = '.github/workflows/release.yml'

/**
 * The two commands the release workflow has the changesets action run: `version` while
 * changesets are pending, `publish` once none is. The rehearsal runs these very strings.
 */
export function releaseCommands(root: string): { version: string; publish: string } {
  const text = readFileSync(join(root, workflow), 'utf8')
  const value = (key: string) => {
    const found = [...text.matchAll(new RegExp(`^\\s+${key}: (.+)$`, 'gm'))]
    if (found.length !== 1 || found[0]?.[1] === undefined) {
      throw new Error(`${workflow} should set the changesets action's \`${key}\` once`)
    }
    return found[0][1].trim()
  }
  return { version: value('version'), publish: value('publish') }
}

/**
 * What the release workflow does on main, in `folder`: a copy of the working tree (committed or
 * not, as a fresh checkout of it would be), its own git repository so the release's tags land
 * there, installed with pnpm. Then, as the changesets action does, the `version` command if
 * changesets are pending (the merged version pull request), and the `publish` command, whose
 * registry and token come from configuration alone: `npm_config_registry` and a user npmrc,
 * where the workflow has npm's address and NPM_TOKEN.
 */
export async function releaseAsMaintainer(
  root: string,
  folder: string,
  registry: Registry,
): Promise<MaintainerRun> {
  const workspace = join(folder, 'workspace')
  await copyWorkingTree(root, workspace)
  const npmrc = join(folder, 'maintainer.npmrc')
  const host = registry.url.replace(/^https?:/, '')
  await writeFile(npmrc, `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`)
  // The configuration a package manager running the test command exported (`npm run` exports
  // its whole configuration as npm_config_*, the user's npmrc included) is not the release's.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)),
  )
  const shell: Shell = {
    cwd: workspace,
    env: {
      ...inherited,
      npm_config_registry: registry.url,
      NPM_CONFIG_USERCONFIG: npmrc,
      GIT_AUTHOR_NAME: 'Release Rehearsal',
      GIT_AUTHOR_EMAIL: 'rehearsal@chargekit.invalid',
      GIT_COMMITTER_NAME: 'Release Rehearsal',
      GIT_COMMITTER_EMAIL: 'rehearsal@chargekit.invalid',
    },
  }
  await run('git init -q -b main && git add -A && git commit -q -m "working tree"', shell)
  await run('pnpm install --frozen-lockfile --prefer-offline', shell)

  const commands = releaseCommands(root)
  const versioned = pendingChangesets(workspace) > 0
  if (versioned) {
    await run(commands.version, shell)
    await run('git add -A && git commit -q -m "release: version packages"', shell)
  }
  await run(commands.publish, shell, 600_000)
  const releases = execFileSync('git', ['tag', '--list'], { cwd: workspace, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((tag) => {
      const at = tag.lastIndexOf('@')
      return { name: tag.slice(0, at), version: tag.slice(at + 1) }
    })
  return { versioned, releases, workspace }
}

function pendingChangesets(workspace: string): number {
  return readdirSync(join(workspace, '.changeset')).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  ).length
}

/** Tracked and untracked files that git does not ignore, as they are now. */
async function copyWorkingTree(root: string, destination: string) {
  await mkdir(destination, { recursive: true })
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(root, file)))
  const archive = join(destination, '.working-tree.tar')
  execFileSync('tar', ['--null', '-T', '-', '-cf', archive], { cwd: root, input: files.join('\0') })
  execFileSync('tar', ['-xf', archive], { cwd: destination })
  await rm(archive)
}
