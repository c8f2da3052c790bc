#!/usr/bin/env node
// Prepares a fresh machine that has only Node and npm: pnpm 12, the workspace's dependencies and,
// with --browser, Debian's Chromium for the browser tests (DESIGN §2: no browser downloads here).
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const PNPM_VERSION = '12.21.0'
const CHROMIUM = '/usr/bin/chromium'

function run(command, args) {
  execFileSync(command, args, { stdio: 'inherit' })
}

function output(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  } catch {
    return ''
  }
}

if (!output('pnpm', ['--version']).startsWith('12.')) {
  console.log(`> npm i -g pnpm@${PNPM_VERSION}`)
  try {
    run('npm', ['i', '-g', `pnpm@${PNPM_VERSION}`])
  } catch {
    // A system-wide Node (e.g. Debian's) keeps global packages in a root-owned folder.
    console.error(
      `Could not install pnpm globally. Run \`sudo npm i -g pnpm@${PNPM_VERSION}\`, or point npm at a folder you own (\`npm config set prefix ~/.npm-global\` and add ~/.npm-global/bin to PATH), then run this command again.`,
    )
    process.exit(1)
  }
}

console.log('> pnpm install --frozen-lockfile')
run('pnpm', ['install', '--frozen-lockfile'])

if (process.argv.includes('--browser') && !existsSync(CHROMIUM)) {
  const sudo = process.getuid?.() === 0 ? [] : ['sudo']
  const apt = [...sudo, 'apt-get']
  console.log('> apt-get install chromium fonts-liberation')
  try {
    run(apt[0], [...apt.slice(1), 'update'])
    const packages = ['chromium', 'fonts-liberation']
    run(apt[0], [...apt.slice(1), 'install', '-y', '--no-install-recommends', ...packages])
  } catch {
    console.warn(`Could not install Chromium; the browser tests need ${CHROMIUM}.`)
    process.exitCode = 1
  }
}
