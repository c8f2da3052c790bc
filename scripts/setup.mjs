#!/usr/bin/env node
// Prepares a fresh machine that has only Node and npm: pnpm 12, the workspace's dependencies and,
// with --browser, the test suite's system packages from Debian (Chromium, PostgreSQL): browsers
// cannot be downloaded here, and the database tests run against a real server.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'

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

// The test suite's system dependencies, from Debian: Chromium for the browser tests, and a
// PostgreSQL server for the database tests (the tests start their own throw-away clusters).
if (process.argv.includes('--browser')) {
  const missing = []
  if (!existsSync(CHROMIUM)) missing.push('chromium', 'fonts-liberation')
  if (!hasPostgresServer()) missing.push('postgresql')
  if (missing.length > 0) {
    const sudo = process.getuid?.() === 0 ? [] : ['sudo']
    const apt = [...sudo, 'apt-get']
    console.log(`> apt-get install ${missing.join(' ')}`)
    try {
      run(apt[0], [...apt.slice(1), 'update'])
      run(apt[0], [...apt.slice(1), 'install', '-y', '--no-install-recommends', ...missing])
    } catch {
      console.warn(
        `Could not install ${missing.join(', ')}: the browser tests need ${CHROMIUM}, the database tests PostgreSQL's server (initdb).`,
      )
      process.exitCode = 1
    }
  }
}

function hasPostgresServer() {
  const root = '/usr/lib/postgresql'
  return (
    existsSync(root) &&
    readdirSync(root).some((version) => existsSync(`${root}/${version}/bin/initdb`))
  )
}
