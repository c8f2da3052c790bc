#!/usr/bin/env node
// Prepares a fresh machine that has only Node and npm: the workspace's dependencies through the
// pinned pnpm and, with --browser, the test suite's system packages from Debian (Chromium,
// PostgreSQL): browsers cannot be downloaded here, and the database tests run against a real
// server. Then runs the pnpm arguments given after `--`, with that same pnpm:
//   node scripts/setup.mjs --browser -- run verify
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { findChromium } from './chromium-path.mjs'

const PNPM_VERSION = '12.21.0'

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

// The pinned pnpm, without touching the user's own: a pnpm 12 already on PATH, otherwise npx
// runs pnpm@12.21.0 from npm's cache. npx puts that pnpm first on PATH for everything it starts,
// so the scripts' own `pnpm …` calls (and turbo's) get the same one.
const pnpm = output('pnpm', ['--version']).startsWith('12.')
  ? ['pnpm']
  : ['npx', '--yes', `pnpm@${PNPM_VERSION}`]

function runPnpm(args) {
  console.log(`> pnpm ${args.join(' ')}`)
  run(pnpm[0], [...pnpm.slice(1), ...args])
}

// The test suite's system dependencies: a Chromium for the browser tests (CHROMIUM_PATH, or one
// already installed) and a PostgreSQL server for the database tests (TEST_DATABASE_URL, or the
// server binaries: the tests start their own throw-away clusters). What is missing comes from
// Debian where apt-get exists; elsewhere the message says what to provide.
if (process.argv.includes('--browser')) {
  const missing = []
  if (findChromium() === undefined) missing.push('chromium-headless-shell', 'fonts-liberation')
  if (!process.env.TEST_DATABASE_URL && !hasPostgresServer()) missing.push('postgresql')
  if (missing.length > 0) installFromDebian(missing)
}

runPnpm(['install', '--frozen-lockfile'])

// What to run once everything is in place: the pnpm arguments after `--`.
const then = process.argv.indexOf('--')
if (then !== -1) {
  // Ctrl-C reaches the command too: wait for it to shut down (the demo stops its servers)
  // instead of returning the prompt while it still prints.
  process.on('SIGINT', () => {})
  try {
    runPnpm(process.argv.slice(then + 1))
  } catch (error) {
    process.exit(typeof error.status === 'number' ? error.status : 1)
  }
}

function installFromDebian(packages) {
  const advice =
    "The browser tests need Chromium (or CHROMIUM_PATH set to a Chromium or Chrome executable); the database tests need PostgreSQL's server (initdb) or TEST_DATABASE_URL."
  if (!output('apt-get', ['--version'])) {
    console.error(`Missing: ${packages.join(', ')}, and there is no apt-get here. ${advice}`)
    process.exit(1)
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo']
  const apt = [...sudo, 'apt-get']
  console.log(`> apt-get install ${packages.join(' ')}`)
  try {
    run(apt[0], [...apt.slice(1), 'update'])
    run(apt[0], [...apt.slice(1), 'install', '-y', '--no-install-recommends', ...packages])
  } catch {
    console.error(`Could not install ${packages.join(', ')}. ${advice}`)
    process.exit(1)
  }
}

function hasPostgresServer() {
  const root = '/usr/lib/postgresql'
  return (
    existsSync(root) &&
    readdirSync(root).some((version) => existsSync(`${root}/${version}/bin/initdb`))
  )
}
