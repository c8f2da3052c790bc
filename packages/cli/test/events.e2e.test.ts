import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ChargekitClient, createClient, type Event } from '@chargekit/client'
import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import { testCard } from '@chargekit/sandbox/testing'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli, runInProcess, stopRunningClis } from './cli-process'

let sandbox: Sandbox
let receiver: ReturnType<typeof createServer>
let client: ChargekitClient
let env: Record<string, string>
let chargeId: string

beforeAll(async () => {
  // Deliveries go to a receiver that answers 202, so resending has a status to show.
  receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(202).end())
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  sandbox = await startSandbox({ port: 0, timeScale: 0.001 })
  env = { CHARGEKIT_BASE_URL: sandbox.apiUrl }
  client = createClient({
    baseUrl: sandbox.url,
    accountId: 'acct_sandbox',
    privateKey: 'sk_sandbox',
  })
  const eventsUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`
  // 40 charges (80 events) for the pipe, then one payment flow to search.
  await Promise.all(
    Array.from({ length: 40 }, () =>
      client.charges.create({
        charge_type: 'card_onetime',
        amount: 5,
        currency: 'EUR',
        events_url: eventsUrl,
      }),
    ),
  )
  const charge = await client.charges.create({
    charge_type: 'card_onetime',
    amount: 10,
    currency: 'EUR',
    events_url: eventsUrl,
    metadata: { order: '1042' },
  })
  chargeId = charge.id
  await client.instruments.create(testCard(charge.id))
  // The tests compare events read at different moments: their deliveries are over first.
  for (;;) {
    const { collection } = await client.events.list({ charge: charge.id })
    if (collection.every((event) => event.delivery_status === 'delivered')) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
})
afterAll(async () => {
  await sandbox.close()
  receiver.closeAllConnections()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})
afterEach(stopRunningClis)

const json = <T>(run: { stdout: string }) => JSON.parse(run.stdout) as T

describe('chargekit events', () => {
  it('lists with the search filters, gets, resends and dismisses, as JSON and as tables', async () => {
    const [all, filtered, table] = await Promise.all([
      runInProcess(['events', 'list', '--charge', chargeId, '--json'], env),
      runInProcess(
        [
          'events',
          'list',
          '--type',
          'charge.created',
          '--type',
          'payment.success',
          '--metadata',
          'order=1042',
          '--created-gte',
          '2000-01-01T00:00:00Z',
          '--limit',
          '1',
          '--json',
        ],
        env,
      ),
      runInProcess(['events', 'list', '--charge', chargeId], env),
    ])
    expect(all.code).toBe(0)
    const events = json<Event[]>(all)
    expect(events.map((event) => event.type)).toEqual([
      'payment.success',
      'instrument.authorized',
      'instrument.created',
      'charge.confirmed',
      'charge.created',
    ])
    // Only this charge has the metadata; of its two events of those types, the newest.
    expect(json<Event[]>(filtered)).toEqual([events[0]])
    // A header, then one row per event, newest first.
    const rows = table.stdout.trimEnd().split('\n')
    expect(rows[0]).toMatch(/^created_at\s+type\s+id\s+object\s+delivery$/)
    expect(rows.slice(1).map((row) => row.split(/\s+/)[2])).toEqual(events.map((event) => event.id))

    const [payment, authorized] = events as [Event, Event]
    const [got, gotTable, resent, dismissed] = await Promise.all([
      runInProcess(['events', 'get', authorized.id, '--json'], env),
      runInProcess(['events', 'get', payment.id], env),
      runInProcess(['events', 'resend', payment.id, '--json'], env),
      runInProcess(['events', 'dismiss', authorized.id], env),
    ])
    expect(gotTable.stdout).toContain(`payment.success  ${payment.id}  (Payment success)`)
    expect(gotTable.stdout).toMatch(/payment\s+pa_\w+\s+success\s+10\.00 EUR/)
    expect(json<Event>(resent).result_status).toBe(202)
    expect(json<Event>(resent).retries_log).toHaveLength(payment.retries_log.length + 1)
    const now = await client.events.retrieve(authorized.id)
    expect(json<Event>(got)).toEqual({ ...now, dismissed_at: json<Event>(got).dismissed_at })
    expect(now.dismissed_at).not.toBeNull()
    expect(dismissed.code).toBe(0)
    expect(dismissed.stdout).toContain(`dismissed_at ${now.dismissed_at}`)
    const stillOpen = json<Event[]>(
      await runInProcess(
        ['events', 'list', '--charge', chargeId, '--dismissed', 'false', '--json'],
        env,
      ),
    )
    expect(stillOpen.map((event) => event.id)).not.toContain(authorized.id)
    expect(stillOpen).toHaveLength(4)
  })

  it('fails with exit code 1 when the service refuses, and says why', async () => {
    const [missing, wrongKey] = await Promise.all([
      runInProcess(['events', 'get', 'ev_missing'], env),
      runInProcess(['events', 'list', '--private-key', 'sk_wrong_key'], env),
    ])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('chargekit: GET /v2/events/ev_missing failed with 404')
    expect(wrongKey.code).toBe(1)
    expect(wrongKey.stderr).toContain('--account-id and --private-key')
  })

  it('stops quietly when the reader of its output goes away (| head -1)', async () => {
    // A real shell pipe, as a user types it. 85 full events are more than a pipe holds, so the
    // CLI is still writing when head has its line and leaves.
    const pipeline = `"${process.execPath}" "${inject('chargekitCli')}" events list --limit 85 --json | head -1; echo "exit \${PIPESTATUS[0]}" >&2`
    const shell = spawn('bash', ['-c', pipeline], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    shell.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    shell.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    await new Promise((resolve) => shell.on('close', resolve))
    expect(stdout).toBe('[\n')
    expect(stderr).toBe('exit 0\n')
  })
})

describe('chargekit, the command line itself', () => {
  it('prints help with examples for every command, and its version', async () => {
    const runs = await Promise.all([
      runInProcess(['--help']),
      runInProcess(['trigger', '--help']),
      runInProcess(['listen', '-h']),
      runInProcess(['events', '--help']),
      runInProcess(['events', 'list', '--help']),
      runInProcess(['--version']),
    ])
    for (const run of runs.slice(0, 5)) {
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(/^Usage: chargekit/)
      expect(run.stdout).toContain('Examples:\n  chargekit ')
    }
    expect(runs[1]?.stdout).toContain(
      '  reversal.pending       an authorized card on card_onetime_simulated_acquirer',
    )
    const { version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    )
    expect(runs[5]).toMatchObject({ code: 0, stdout: `${version}\n` })
  })

  it('names the bad flag and what was expected, with exit code 2', async () => {
    const [unknown, limit, value, command, subcommand] = await Promise.all([
      // In a process of its own: the exit code and stderr are the process's.
      runCli(['events', 'list', '--chrage', 'ch_1']),
      runInProcess(['events', 'list', '--limit', '0']),
      runInProcess(['listen', '--forward-to']),
      runInProcess(['lisen']),
      runInProcess(['events', 'lst']),
    ])
    expect(unknown).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'chargekit: unknown flag --chrage (did you mean --charge?). Run chargekit events list --help for usage.\n',
    })
    expect(limit.code).toBe(2)
    expect(limit.stderr).toContain('--limit expects a whole number from 1 to 10000; got "0"')
    expect(value.code).toBe(2)
    expect(value.stderr).toContain('--forward-to expects a value')
    expect(command.code).toBe(2)
    expect(command.stderr).toContain('unknown command "lisen" (did you mean listen?)')
    expect(subcommand.code).toBe(2)
    expect(subcommand.stderr).toContain('unknown subcommand "lst" (did you mean list?)')
  })
})
