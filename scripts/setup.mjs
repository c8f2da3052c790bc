#!/usr/bin/env node
// Prepares a fresh machine that has only Node and npm: the workspace's dependencies through the
// pinned pnpm and, with --browser, the test suite's system packages from Debian (Chromium,
// PostgreSQL): browsers cannot be downloaded here, and the database tests run against a real
// server. Then runs the pnpm arguments given after `--`, with that same pnpm:
//   node scripts/setup.mjs --browser -- run verify
// Each preparing step is one line; its output goes to .logs/setup/ and is printed when it fails.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { findChromium } from './chromium-path.mjs'
import { createStepRunner } from './step-runner.mjs'

const PNPM_VERSION = '12.21.0'

const steps = createStepRunner({
  logDir: fileURLToPath(new URL('../.logs/setup', import.meta.url)),
})

/** Runs one preparing step; when it fails, says `advice` (if any) and exits with its code. */
async function step(name, command, args, { advice, logName } = {}) {
  const { ok, code } = await steps.run({ name, command, args, logName })
  if (ok) return
  if (advice !== undefined) console.error(advice)
  process.exit(code)
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

// The test suite's system dependencies: a Chromium for the browser tests (CHROMIUM_PATH, or one
// already installed), a PostgreSQL server for the database tests (TEST_DATABASE_URL, or the
// server binaries: the tests start their own throw-away clusters), and for the container check
// podman with podman-compose, mmdebstrap (its base images are made locally) and PHP with cURL
// (it runs the docs' PHP example). What is missing comes from Debian where apt-get exists;
// elsewhere the message says what to provide.
if (process.argv.includes('--browser')) {
  const missing = []
  if (findChromium() === undefined) missing.push('chromium-headless-shell', 'fonts-liberation')
  if (!process.env.TEST_DATABASE_URL && !hasPostgresServer()) missing.push('postgresql')
  if (!has('php')) missing.push('php-cli', 'php-curl')
  else if (!phpHasCurl()) missing.push('php-curl')
  if (missing.length > 0) await installFromDebian(missing)
  // With their recommended packages (netavark and aardvark-dns: networks whose containers find
  // each other by service name), as measured on these machines.
  if (!has('podman') || !has('podman-compose') || !has('mmdebstrap')) {
    await installFromDebian(
      ['podman', 'runc', 'mmdebstrap', 'uidmap', 'slirp4netns', 'podman-compose', 'iptables'],
      { recommends: true },
    )
  }
  configureContainers()
}

await step('pnpm install', pnpm[0], [...pnpm.slice(1), 'install', '--frozen-lockfile'])

// What to run once everything is in place: the pnpm arguments after `--`, its output as it comes.
const then = process.argv.indexOf('--')
if (then !== -1) {
  const args = process.argv.slice(then + 1)
  console.log(`> pnpm ${args.join(' ')}`)
  // Ctrl-C reaches the command too: wait for it to shut down (the demo stops its servers)
  // instead of returning the prompt while it still prints.
  process.on('SIGINT', () => {})
  try {
    execFileSync(pnpm[0], [...pnpm.slice(1), ...args], { stdio: 'inherit' })
  } catch (error) {
    process.exit(typeof error.status === 'number' ? error.status : 1)
  }
}

function has(command) {
  return output('sh', ['-c', `command -v ${command}`]) !== ''
}

/**
 * What podman needs on these machines (a root VM with mixed cgroup v1/v2, no systemd): runc with
 * the cgroupfs manager (crun refuses the mix) and lower default ulimits (the defaults are
 * refused). Written only where no configuration exists, so a machine's own is kept.
 */
function configureContainers() {
  const file = '/etc/containers/containers.conf'
  if (!has('podman') || existsSync(file) || process.getuid?.() !== 0) return
  mkdirSync('/etc/containers', { recursive: true })
  writeFileSync(
    file,
    [
      '[containers]',
      'default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]',
      '[engine]',
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      '',
    ].join('\n'),
  )
  console.log(`> wrote ${file}`)
}

async function installFromDebian(packages, { recommends = false } = {}) {
  const advice =
    "The browser tests need Chromium (or CHROMIUM_PATH set to a Chromium or Chrome executable); the database tests need PostgreSQL's server (initdb) or TEST_DATABASE_URL; the container check needs podman, podman-compose, mmdebstrap and php."
  if (!output('apt-get', ['--version'])) {
    console.error(`Missing: ${packages.join(', ')}, and there is no apt-get here. ${advice}`)
    process.exit(1)
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo']
  const apt = [...sudo, 'apt-get']
  const failed = `Could not install ${packages.join(', ')}. ${advice}`
  // Logs named after the first package: a second installation (the container tools) keeps its own.
  await step('apt-get update', apt[0], [...apt.slice(1), 'update'], {
    advice: failed,
    logName: `apt-get-update-${packages[0]}`,
  })
  const options = recommends ? ['-y'] : ['-y', '--no-install-recommends']
  await step('apt-get install', apt[0], [...apt.slice(1), 'install', ...options, ...packages], {
    advice: failed,
    logName: `apt-get-install-${packages[0]}`,
  })
}

/** The docs' PHP example calls cURL, an extension Debian ships apart from PHP itself. */
function phpHasCurl() {
  return output('php', ['-r', "echo function_exists('curl_init') ? 'yes' : 'no';"]) === 'yes'
}

function hasPostgresServer() {
  const root = '/usr/lib/postgresql'
  return (
    existsSync(root) &&
    readdirSync(root).some((version) => existsSync(`${root}/${version}/bin/initdb`))
  )
}
