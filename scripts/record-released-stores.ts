// Records what a released sandbox leaves in its stores, for the test that opens them with the
// current code (packages/sandbox/test/released-stores.test.ts):
//   pnpm fixtures:stores [git-ref]        (default HEAD: run it on the release's version commit)
// The ref's files are unpacked in a temp folder and built; its own sandbox CLI runs on a new data
// folder and then on a new PostgreSQL database, and its own `chargekit trigger` fills each with
// flows that use every table: objects and events of every kind, 3-D Secure challenges waiting
// for the customer, captures the acquirer has not confirmed yet, settlements due tomorrow,
// idempotency keys, and deliveries that failed and wait for their next attempt (the charges'
// events_url refuses connections). Written to
// packages/sandbox/test/fixtures/released-stores/<version>/: the data folder as a tarball, the
// database as a pg_dump, and expected.json listing what each holds.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port'
import { findPostgresBin, startLocalPostgres } from './local-postgres'

const root = join(import.meta.dirname, '..')
const ref = process.argv[2] ?? 'HEAD'

/** The flows recorded: one charge each, chosen to leave every kind of row behind. */
const triggered = [
  'charge.created',
  'payment.success',
  'refund.success',
  'reversal.success',
  'instrument.pending',
  'instrument.invalid',
  'dispute.created',
  // Last, so the acquirer has not answered them when the sandbox stops (refund.pending first
  // waits for its payment's confirmation).
  'refund.pending',
  'payment.pending',
]

/** Slows the simulated acquirer's answers (2 s) to a minute, so they are still due when it stops. */
const timeScale = '30'
const account = { id: 'acct_sandbox', key: 'sk_sandbox' }

/** What a store held when the released sandbox stopped, as its API showed it. */
export interface RecordedStore {
  charges: { id: string; amount: number; currency: string }[]
  /** `nextAttemptAt`: when the failed delivery of the event was to be attempted again. */
  events: {
    id: string
    type: string
    object_id: string
    attempts: number
    nextAttemptAt: string | null
  }[]
  /** Payments the acquirer had not confirmed yet: the restarted sandbox confirms them. */
  pendingPayments: string[]
}

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'chargekit-released-stores-'))
  const checkout = join(work, 'checkout')
  const postgres = await startLocalPostgres()
  try {
    if (postgres === undefined) {
      throw new Error('Needs PostgreSQL (server binaries or TEST_DATABASE_URL)')
    }
    await mkdir(checkout)
    execFileSync('sh', ['-c', 'git archive --format=tar "$0" | tar -x -C "$1"', ref, checkout], {
      cwd: root,
    })
    const shell = (command: string, args: string[]) =>
      execFileSync(command, args, { cwd: checkout, stdio: 'inherit' })
    shell('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'])
    shell('pnpm', [
      'exec',
      'turbo',
      'run',
      'build',
      '--filter=@chargekit/sandbox',
      '--filter=chargekit',
    ])
    const { version } = JSON.parse(
      readFileSync(join(checkout, 'packages', 'sandbox', 'package.json'), 'utf8'),
    ) as { version: string }
    const out = join(root, 'packages', 'sandbox', 'test', 'fixtures', 'released-stores', version)
    if (existsSync(out)) {
      throw new Error(`${out} exists: a released version's stores are recorded once`)
    }

    const dataFolder = join(work, 'data')
    const embedded = await recordStore(checkout, ['--data', dataFolder])
    // The cluster is a throw-away one: its first database will do.
    const onPostgres = await recordStore(checkout, ['--database', postgres.url])

    await mkdir(out, { recursive: true })
    execFileSync('tar', ['-cJf', join(out, 'data-folder.tar.xz'), '-C', dataFolder, '.'])
    await writeFile(join(out, 'postgres.sql'), dump(postgres.url))
    const commit = execFileSync('git', ['log', '-1', '--format=%h %s', ref], {
      cwd: root,
      encoding: 'utf8',
    }).trim()
    const expected = { sandbox: version, commit, dataFolder: embedded, postgres: onPostgres }
    const expectedFile = join(out, 'expected.json')
    await writeFile(expectedFile, `${JSON.stringify(expected, null, 2)}\n`)
    // As the repository's lint wants it: short lists on one line.
    execFileSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', expectedFile], {
      cwd: root,
      stdio: 'ignore',
    })
    console.log(`Recorded ${out}`)
  } finally {
    await postgres?.stop()
    await rm(work, { recursive: true, force: true })
  }
}

/** Runs the checkout's sandbox on a store, the checkout's CLI against it, and reads it back. */
async function recordStore(checkout: string, storeFlags: string[]): Promise<RecordedStore> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const sandbox = spawn(
    process.execPath,
    [
      join(checkout, 'packages', 'sandbox', 'dist', 'cli.js'),
      ...storeFlags,
      '--port',
      String(port),
      '--time-scale',
      timeScale,
      '--quiet',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  try {
    await printed(sandbox, 'listening on')
    execFileSync(
      process.execPath,
      [
        join(checkout, 'packages', 'cli', 'dist', 'cli.js'),
        'trigger',
        ...triggered,
        '--events-url',
        // Nothing listens on port 1: every delivery fails, and waits for its next attempt.
        'http://127.0.0.1:1/events',
        '--timeout',
        '120',
      ],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          CHARGEKIT_BASE_URL: baseUrl,
          CHARGEKIT_ACCOUNT_ID: account.id,
          CHARGEKIT_PRIVATE_KEY: account.key,
        },
      },
    )
    const charges = await all(baseUrl, '/charges')
    const events = await all(baseUrl, '/events')
    const payments = await all(baseUrl, '/payments')
    return {
      charges: charges.map(({ id, amount, currency }) => ({ id, amount, currency })),
      events: events.map((event) => ({
        id: event.id,
        type: event.type,
        object_id: event.object_id,
        attempts: 1 + event.retries_log.length,
        nextAttemptAt: event.next_attempt_at ?? null,
      })),
      pendingPayments: payments
        .filter((payment) => payment.status === 'pending')
        .map((payment) => payment.id),
    }
  } finally {
    const stopped = new Promise((resolve) => sandbox.once('close', resolve))
    sandbox.kill('SIGINT')
    await stopped
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the API's answers, read for a handful of fields
async function all(baseUrl: string, path: string): Promise<any[]> {
  const answer = await fetch(`${baseUrl}/v2${path}?per_page=100`, {
    headers: { authorization: `Basic ${btoa(`${account.id}:${account.key}`)}` },
  })
  const body = (await answer.json()) as { collection: unknown[]; pagination: { total: number } }
  if (!answer.ok || body.pagination.total > body.collection.length) {
    throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(body).slice(0, 500)}`)
  }
  return body.collection
}

/**
 * The database as SQL that node-postgres can run in one query: pg_dump's plain format with
 * INSERTs (not COPY, which needs psql), without psql's backslash commands.
 */
function dump(url: string): string {
  const bin = findPostgresBin()
  const pgDump = bin === undefined ? 'pg_dump' : join(bin, 'pg_dump')
  const sql = execFileSync(pgDump, ['--no-owner', '--no-privileges', '--inserts', url], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  return sql
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n')
}

function printed(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes(text)) resolve()
    })
    child.once('close', (code) =>
      reject(new Error(`The sandbox exited (${code}) before it listened:\n${output}`)),
    )
  })
}

await main()
