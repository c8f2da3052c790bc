import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { authorization, testCard } from '../src/testing/index'
import { cli, killRunningClis, postKeyed, startedCli, stateFlags } from './cli-process'
import { type FreshState, freshDatabase, freshDataFolder } from './store-under-test'

/**
 * A 2xx means stored: a sandbox killed with SIGKILL in the middle of a burst of concurrent
 * writes, then restarted on the same state, serves every write it acknowledged, unchanged.
 */
const states: FreshState[] = []
// Not after each test: the tests run at once, each stopping its own processes.
afterAll(async () => {
  killRunningClis()
  for (const state of states.splice(0)) await state.remove()
})

const credentials = authorization('acct_sandbox', 'sk_sandbox')

interface Write {
  path: string
  body: unknown
  key: string
}

interface Acknowledged {
  /** Where the object is read back. */
  path: string
  body: Record<string, unknown>
  /** Fields a later write (a capture of this instrument) may have changed since. */
  mayChange: readonly string[]
}

// What a capture changes on its instrument.
const changedByCapture = ['captured_amount', 'last_payment', 'used', 'updated_at']

/**
 * `clients` loops of charge → instrument → capture, each write with its own Idempotency-Key,
 * until one gets no answer (the sandbox died). `onAcknowledged` sees every 2xx.
 */
async function writeUntilKilled(api: string, clients: number, onAcknowledged: () => void) {
  const acknowledged: Acknowledged[] = []
  const unanswered: Write[] = []
  async function send(write: Write): Promise<Record<string, unknown> | undefined> {
    const answer = await postKeyed(api, write)
    if (answer === undefined) {
      unanswered.push(write)
      return undefined
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    onAcknowledged()
    return answer.body
  }
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let round = 0; ; round++) {
        const charge = await send({
          path: '/charges',
          key: randomUUID(),
          body: {
            charge_type: 'card_onetime',
            amount: 10 + client + round / 100,
            currency: 'EUR',
            // Nothing listens there: deliveries fail fast and wait for their retry.
            events_url: 'http://127.0.0.1:9/events',
            metadata: { client, round },
            instrument_params: { captured_on_creation: false },
          },
        })
        if (charge === undefined) return
        acknowledged.push({ path: `/charges/${charge.id}`, body: charge, mayChange: [] })
        const instrument = await send({
          path: '/instruments',
          key: randomUUID(),
          body: testCard(String(charge.id)),
        })
        if (instrument === undefined) return
        const stored: Acknowledged = {
          path: `/instruments/${instrument.id}`,
          body: instrument,
          mayChange: changedByCapture,
        }
        acknowledged.push(stored)
        const payment = await send({
          path: '/payments',
          key: randomUUID(),
          body: { instrument: instrument.id, amount: 5, currency: 'EUR' },
        })
        if (payment === undefined) return
        acknowledged.push({ path: `/payments/${payment.id}`, body: payment, mayChange: [] })
      }
    }),
  )
  return { acknowledged, unanswered }
}

async function read(api: string, path: string) {
  const response = await fetch(`${api}${path}`, {
    headers: { authorization: credentials },
  })
  return { status: response.status, body: await response.json() }
}

/** The flags of a sandbox on new, empty state of the given kind, removed after the test. */
async function freshState(fresh: () => Promise<FreshState>): Promise<string[]> {
  const state = await fresh()
  states.push(state)
  return stateFlags(state)
}

async function killMidLoadAndRestart(args: string[]) {
  const first = await startedCli(args)
  // The moment of the kill is random: after 10 to 25 acknowledged writes. The eight clients keep
  // writes of every kind in flight at any moment; more acknowledged first would add only reads.
  const killAfter = 10 + Math.floor(Math.random() * 16)
  let count = 0
  const { acknowledged, unanswered } = await writeUntilKilled(first.api, 8, () => {
    if (++count === killAfter) first.run.child.kill('SIGKILL')
  })
  await first.run.exited
  expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter)

  const second = await startedCli(args)
  await Promise.all(
    acknowledged.map(async ({ path, body, mayChange }) => {
      const answer = await read(second.api, path)
      expect(answer.status, path).toBe(200)
      const unchanged = { ...answer.body }
      for (const field of mayChange) unchanged[field] = body[field]
      expect(unchanged, path).toEqual(body)
    }),
  )
  return { second, unanswered }
}

// The two stores' tests share nothing: they run at once.
describe.concurrent('kill -9 under load', () => {
  it('loses no acknowledged write of an embedded database, and frees the keys of unanswered ones', async () => {
    const args = await freshState(freshDataFolder)
    const { second, unanswered } = await killMidLoadAndRestart(args)
    // The folder belongs to the running process: a second one, not waiting for it, is refused,
    // saying why.
    const intruder = cli(['--port', '0', '--log-format', 'text', '--startup-timeout', '0', ...args])
    // The killed process held keys of requests it never answered: a retry runs at once.
    await Promise.all(
      unanswered.map(async (write) => {
        const retried = await postKeyed(second.api, write)
        expect(retried?.body.failure_code, write.path).not.toBe('02.04.0000')
        expect(retried?.status, write.path).toBeLessThan(500)
      }),
    )
    expect(await intruder.exited).toBe(1)
    expect(intruder.output().stderr).toMatch(/data folder .* is in use by another sandbox process/)
    second.run.child.kill('SIGTERM')
    expect(await second.run.exited).toBe(0)
  }, 60_000)

  it.skipIf(inject('postgresUrl') === undefined)(
    'loses no acknowledged write of a PostgreSQL database',
    async () => {
      const { second } = await killMidLoadAndRestart(await freshState(freshDatabase))
      expect(second.run.output().stdout).toContain('State:        the PostgreSQL database')
    },
    60_000,
  )
})
