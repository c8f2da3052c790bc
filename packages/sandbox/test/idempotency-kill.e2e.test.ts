import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { authorization, testCard } from '../src/testing/index'
import { killRunningClis, postKeyed, startedCli } from './cli-process'
import { type FreshState, freshDatabase } from './store-under-test'

/**
 * Two sandbox processes on one PostgreSQL database; one is killed with SIGKILL while it answers
 * keyed refunds, at a different moment each round, from before its first answer to after most
 * of them. Every key is then sent again to the other process once the dead one's sessions are
 * gone: each is answered at once (replayed when its refund was committed, run when it was not),
 * never left "in progress" until a lease runs out, and no payment is refunded twice.
 */
const onPostgres = inject('postgresUrl') !== undefined
const states: FreshState[] = []
afterAll(async () => {
  killRunningClis()
  for (const state of states.splice(0)) await state.remove()
})

const credentials = authorization('acct_sandbox', 'sk_sandbox')
const rounds = 4
const refundsPerRound = 8

/** A captured payment of 20 EUR, made on `api`. */
async function payment(api: string, label: string): Promise<string> {
  const charge = await postKeyed(api, {
    path: '/charges',
    body: {
      charge_type: 'card_onetime',
      amount: 20,
      currency: 'EUR',
      events_url: 'http://127.0.0.1:9/events',
      instrument_params: { captured_on_creation: false },
    },
    key: `${label}-charge`,
  })
  const instrument = await postKeyed(api, {
    path: '/instruments',
    body: testCard(String(charge?.body.id)),
    key: `${label}-in`,
  })
  const paid = await postKeyed(api, {
    path: '/payments',
    body: { instrument: instrument?.body.id, amount: 20, currency: 'EUR' },
    key: `${label}-pay`,
  })
  expect(paid?.status).toBe(201)
  return String(paid?.body.id)
}

/** The sessions a process named `applicationName` still has on the database server. */
async function sessionsOf(database: string, applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: database })
  await client.connect()
  try {
    const { rows } = await client.query<{ count: string }>(
      'SELECT count(*) FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    )
    return Number(rows[0]?.count)
  } finally {
    await client.end()
  }
}

describe.skipIf(!onPostgres)('an Idempotency-Key held by a process killed mid-refund', () => {
  it('is resolved by the other process once the dead one is gone, and no refund runs twice', async () => {
    const state = await freshDatabase()
    states.push(state)
    const database = state.options.database
    const survivor = await startedCli(['--database', `${database}?application_name=survivor`])
    const tally = { replayed: 0, ranAgain: 0 }

    for (let round = 0; round < rounds; round++) {
      const payments = await Promise.all(
        Array.from({ length: refundsPerRound }, (_, index) =>
          payment(survivor.api, `r${round}-p${index}`),
        ),
      )
      const victimName = `victim${round}`
      const victim = await startedCli(['--database', `${database}?application_name=${victimName}`])
      // A different moment each round: after 0, 2, 4… of its answers have come back.
      const killAfter = round * 2
      let answered = 0
      const refund = (paymentId: string) =>
        postKeyed(victim.api, {
          path: `/payments/${paymentId}/refund`,
          body: { amount: 5 },
          key: `refund-${paymentId}`,
        })
      const kill = () => victim.run.child.kill('SIGKILL')
      if (killAfter === 0) setTimeout(kill, 5)
      await Promise.all(
        payments.map(async (paymentId) => {
          const answer = await refund(paymentId)
          if (answer !== undefined && ++answered === killAfter) kill()
        }),
      )
      kill()
      await victim.run.exited
      // Once the dead process's sessions are gone, its presence lock is released with them.
      await expect.poll(() => sessionsOf(database, victimName), { timeout: 10_000 }).toBe(0)

      for (const paymentId of payments) {
        const before = await refundsOf(survivor.api, paymentId)
        const retry = await postKeyed(survivor.api, {
          path: `/payments/${paymentId}/refund`,
          body: { amount: 5 },
          key: `refund-${paymentId}`,
        })
        // Answered at once, not "still in progress" until the key's lease runs out.
        expect({ paymentId, status: retry?.status }).toEqual({ paymentId, status: 201 })
        if (before.length === 1) {
          // Its refund was committed before the kill: the retry replays that answer.
          expect(retry?.replayed).toBe(true)
          expect(retry?.body.id).toBe(before[0])
          tally.replayed++
        } else {
          expect(before).toEqual([])
          expect(retry?.replayed).toBe(false)
          tally.ranAgain++
        }
        expect(await refundsOf(survivor.api, paymentId)).toEqual([retry?.body.id])
      }
    }
    // The kills fell both before and after refunds were committed.
    expect(tally.replayed).toBeGreaterThan(0)
    expect(tally.ranAgain).toBeGreaterThan(0)
    survivor.run.child.kill('SIGTERM')
    expect(await survivor.run.exited).toBe(0)
  }, 120_000)
})

/** The ids of a payment's refunds. */
async function refundsOf(api: string, paymentId: string): Promise<string[]> {
  const response = await fetch(`${api}/payments/${paymentId}`, {
    headers: { authorization: credentials },
  })
  const body = (await response.json()) as { refunds: { id: string }[] }
  return body.refunds.map((refund) => refund.id)
}
