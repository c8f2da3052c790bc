import { connect, createServer, type Server } from 'node:net'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../../scripts/free-port'
import { eventually, type Receiver, startReceiver, testCard } from '../src/testing/index'
import { cli, killRunningClis } from './cli-process'
import { type FreshState, freshDatabase, postgresInRun } from './store-under-test'
import { call, expectAllTimedWorkDone, failingSomeDeliveries, startCli } from './timed-work-process'

/**
 * The sandbox as a service on PostgreSQL: ready only once its database answers, and stopped by
 * SIGTERM without losing what it acknowledged — requests and delivery attempts under way finish
 * within the shutdown timeout, and what they leave is done by the next sandbox on the database.
 */
const states: FreshState[] = []
const receivers: Receiver[] = []
const servers: Server[] = []
afterAll(async () => {
  killRunningClis()
  for (const server of servers.splice(0)) server.close()
  for (const receiver of receivers.splice(0)) await receiver.stop()
  for (const state of states.splice(0)) await state.remove()
})

async function database(): Promise<string> {
  const state = await freshDatabase()
  states.push(state)
  return state.options.database
}

async function receiver(rule: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(rule)
  receivers.push(started)
  return started
}

/** Forwards connections on `port` to `target`'s host and port, as a database coming up would. */
async function forward(port: number, target: URL): Promise<void> {
  const server = createServer((socket) => {
    const upstream = connect(Number(target.port || 5432), target.hostname)
    socket.pipe(upstream).pipe(socket)
    socket.on('error', () => upstream.destroy())
    upstream.on('error', () => socket.destroy())
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
}

const json = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Record<string, unknown>,
})

describe.skipIf(!postgresInRun).concurrent('on PostgreSQL', { timeout: 90_000 }, () => {
  it('answers /healthz at once and /readyz 503 until its database can be reached, then serves', async () => {
    const databaseUrl = new URL(await database())
    const port = await freePort()
    const unreachable = new URL(databaseUrl)
    unreachable.port = String(port)
    const run = cli(['--port', '0', '--log-format', 'text', '--startup-timeout', '60'], {
      DATABASE_URL: unreachable.toString(),
    })
    const [, url] = await run.waitFor(
      /^starting on (http:\/\/127\.0\.0\.1:\d+): opening the store/m,
    )
    expect(await json(await fetch(`${url}/healthz`))).toEqual({
      status: 200,
      body: { status: 'ok' },
    })
    await eventually(async () =>
      expect(await json(await fetch(`${url}/readyz`))).toEqual({
        status: 503,
        body: { status: 'starting', reason: 'waiting for the store to open' },
      }),
    )
    const early = await fetch(`${url}/v2/charges`)
    expect(early.status).toBe(503)
    expect(early.headers.get('retry-after')).toBe('1')
    await early.arrayBuffer()
    // Each failed try is a warning naming why, never the URL and its password.
    expect(run.output().stderr).toMatch(/cannot open the store yet; trying again in \d+ ms/)
    expect(run.output().stderr).toContain('ECONNREFUSED')
    expect(run.output().stdout).not.toContain('Press Ctrl-C')

    await forward(port, databaseUrl)
    await run.waitFor(/Press Ctrl-C to stop/)
    expect(run.output().stdout).toContain(`(from DATABASE_URL)`)
    expect(await json(await fetch(`${url}/readyz`))).toEqual({
      status: 200,
      body: { status: 'ready' },
    })
    const listed = await call(`${url}/v2`, 'GET', '/charges')
    expect(listed?.status).toBe(200)
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  })

  it('loses no acknowledged write when stopped by SIGTERM under load: the next sandbox has them all and delivers every event', async () => {
    const databaseUrl = await database()
    const events = await receiver(failingSomeDeliveries())
    const first = await startCli(['--database', databaseUrl])
    const acknowledged: { path: string; id: string }[] = []
    const stopAfter = 10 + Math.floor(Math.random() * 10)
    let stopping = false
    // Four clients create charges on the simulated acquirer (captured on creation, settled a
    // scaled day later) and their card instruments until the sandbox refuses connections.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (;;) {
          const charge = await call(first.api, 'POST', '/charges', {
            charge_type: 'card_onetime',
            amount: 20,
            currency: 'EUR',
            events_url: `${events.url}/hooks`,
            channels: ['card_onetime_simulated_acquirer'],
          })
          if (charge === undefined) return
          expect(charge.status, JSON.stringify(charge.body)).toBe(201)
          acknowledged.push({ path: '/charges', id: String(charge.body.id) })
          // At least: the other clients' instruments count too, so the exact number may pass.
          if (acknowledged.length >= stopAfter && !stopping) {
            stopping = true
            first.run.child.kill('SIGTERM')
          }
          const instrument = await call(
            first.api,
            'POST',
            '/instruments',
            testCard(String(charge.body.id)),
          )
          if (instrument === undefined) return
          expect(instrument.status, JSON.stringify(instrument.body)).toBe(201)
          acknowledged.push({ path: '/instruments', id: String(instrument.body.id) })
        }
      }),
    )
    expect(await first.run.exited).toBe(0)
    expect(first.run.output().stderr).not.toContain('did not stop in time')

    const second = await startCli(['--database', databaseUrl])
    for (const { path, id } of acknowledged) {
      const read = await call(second.api, 'GET', `${path}/${id}`)
      expect(read?.status, `${path}/${id}`).toBe(200)
    }
    const done = await expectAllTimedWorkDone(second.api, events)
    expect(done.payments.length).toBeGreaterThanOrEqual(Math.floor(stopAfter / 2))
    second.run.child.kill('SIGTERM')
    expect(await second.run.exited).toBe(0)
  })

  it('lets a request and a delivery attempt under way finish, and leaves an attempt still running at the timeout to the next sandbox', async () => {
    const databaseUrl = await database()
    const held: (() => void)[] = []
    const firstAttemptOf = new Set<string>()
    // The first charge.created is held until the test lets it go; the second hangs until the
    // sandbox gives up on it; everything else is answered at once.
    const events = await receiver((delivery) => {
      if (delivery.type !== 'charge.created' || firstAttemptOf.has(delivery.id)) return 204
      firstAttemptOf.add(delivery.id)
      if (firstAttemptOf.size === 1)
        return (response) => held.push(() => response.writeHead(204).end())
      return 'hang'
    })
    const first = await startCli(['--database', databaseUrl, '--shutdown-timeout', '3'])
    const charge = async () => {
      const created = await call(first.api, 'POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 20,
        currency: 'EUR',
        events_url: `${events.url}/hooks`,
        channels: ['card_onetime_simulated_acquirer'],
      })
      expect(created?.status).toBe(201)
      return String(created?.body.id)
    }
    const finished = await charge()
    await events.until(() => firstAttemptOf.size === 1)
    const cutShort = await charge()
    await events.until(() => firstAttemptOf.size === 2)

    // A request under way: its charge's lock is held here, so it waits inside the sandbox.
    const lock = new pg.Client({ connectionString: databaseUrl })
    await lock.connect()
    const key = `acct_sandbox:${finished}`
    await lock.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key])
    const instrument = call(first.api, 'POST', '/instruments', testCard(finished))
    await eventually(async () => {
      const { rows } = await lock.query(
        `SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
      )
      expect(rows[0].waiting).toBe(1)
    })

    first.run.child.kill('SIGTERM')
    await first.run.waitFor(/stopping the sandbox/)
    await expect(fetch(`${first.api}/charges`)).rejects.toThrow()
    await lock.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key])
    await lock.end()
    expect((await instrument)?.status).toBe(201)
    for (const release of held) release()
    expect(await first.run.exited).toBe(0)

    const second = await startCli(['--database', databaseUrl])
    await expectAllTimedWorkDone(second.api, events)
    const attempts = (chargeId: string, type: string) =>
      events.received.filter(
        (delivery) => delivery.type === type && delivery.body.includes(chargeId),
      )
    // Finished during the stop, recorded, and so not sent again; the one cut short was.
    expect(attempts(finished, 'charge.created')).toHaveLength(1)
    expect(attempts(cutShort, 'charge.created')).toHaveLength(2)
    second.run.child.kill('SIGTERM')
    expect(await second.run.exited).toBe(0)
  })
})
