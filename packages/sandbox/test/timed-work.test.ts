import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryStore, type Processor } from '../src/index'
import {
  type ApiCaller,
  eventually,
  startReceiver,
  startTestSandbox,
  TestClock,
  testCard,
} from '../src/testing/index'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const hour = 3_600_000

/** Confirms every capture two seconds later, as an acquirer would. */
const laterBank: Processor = {
  name: 'later_bank',
  chargeTypes: ['card_onetime'],
  authorize: () => ({ status: 'succeeded' }),
  capture: () => ({
    status: 'pending',
    awaiting: 'processor',
    afterMs: 2_000,
    outcome: { status: 'succeeded', transactionId: 'later-capture' },
  }),
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({ status: 'succeeded' }),
}

describe('timed work across a restart', () => {
  it('resumes pending retries and a pending processor answer at once when late, sending nothing twice', async () => {
    let refusing = true
    const merchant = await startReceiver(() => (refusing ? 500 : 200))
    cleanups.push(() => merchant.stop())
    const store = createMemoryStore()
    // Stands still while the first sandbox runs: its retries and the capture's answer stay due.
    const clock = new TestClock()
    const first = await startTestSandbox({ store, clock, processors: [laterBank] })
    cleanups.push(() => first.close())
    const api = first.api
    const charge = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 12,
      currency: 'EUR',
      events_url: merchant.url,
      channels: ['card_onetime_later_bank'],
    })
    const instrument = await api('POST', '/instruments', testCard(charge.body.id))
    expect(instrument.body.status).toBe('authorized')
    const chargeEvents = async (call: ApiCaller) =>
      (await call('GET', `/events?charge=${charge.body.id}&per_page=100`)).body.collection as {
        id: string
        type: string
        delivery_status: string
        result_status: number
        retries_log: { result_status: number }[]
      }[]
    // Every first attempt failed: each event waits for its retry, 5 s away, and the capture's
    // answer is 2 s away.
    const failing = await eventually(async () => {
      const events = await chargeEvents(api)
      expect(events.map(({ delivery_status }) => delivery_status)).toEqual(
        Array(events.length).fill('failing'),
      )
      return events
    })
    expect(failing.map(({ type }) => type).reverse()).toEqual([
      'charge.created',
      'charge.confirmed',
      'instrument.created',
      'instrument.authorized',
      'payment.pending',
    ])
    await first.close()
    const attemptsBeforeRestart = merchant.received.length
    expect(attemptsBeforeRestart).toBe(failing.length)

    refusing = false
    // The sandbox comes back an hour later: everything the first one left due is late.
    clock.advance(hour)
    const second = await startTestSandbox({ store, clock, processors: [laterBank] })
    cleanups.push(() => second.close())
    const resumed = second.api
    const events = await eventually(async () => {
      const all = await chargeEvents(resumed)
      expect(all.map(({ type }) => type)).toContain('payment.success')
      expect(all.every(({ delivery_status }) => delivery_status === 'delivered')).toBe(true)
      return all
    })

    const payment = (await resumed('GET', `/payments?charge=${charge.body.id}`)).body.collection
    expect(payment).toHaveLength(1)
    expect(payment[0]).toMatchObject({
      status: 'success',
      external_ids: { transaction_id: 'later-capture' },
    })
    // The answer was applied once, and each event reached the receiver exactly once more: its
    // retry (logged) for the five left failing, the first attempt for the new payment.success.
    expect(events.filter(({ type }) => type === 'payment.success')).toHaveLength(1)
    for (const event of events) {
      const expectedLog = event.type === 'payment.success' ? [] : [200]
      expect(event.retries_log.map(({ result_status }) => result_status)).toEqual(expectedLog)
      const attempts = merchant.received.filter(({ id }) => id === event.id)
      expect(attempts).toHaveLength(event.type === 'payment.success' ? 1 : 2)
    }
    expect(merchant.received).toHaveLength(attemptsBeforeRestart + events.length)
  })
})

/** A receiver that never answers; `closed` counts attempts the sandbox gave up on. */
async function hangingReceiver(timeline: string[]) {
  const server: Server = createServer((request) => {
    request.resume()
    timeline.push('a-received')
    request.socket.on('close', () => timeline.push('a-closed'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
}

describe('receivers of different accounts', () => {
  it("deliver one account's events while another account's receivers hang", async () => {
    const timeline: string[] = []
    const hanging = await Promise.all(Array.from({ length: 5 }, () => hangingReceiver(timeline)))
    const prompt = await startReceiver((delivery) => {
      timeline.push(`b-received ${delivery.type}`)
      return 200
    })
    cleanups.push(() => prompt.stop())
    const accounts = [
      { id: 'acct_hanging', key: 'sk_hanging' },
      { id: 'acct_prompt', key: 'sk_prompt' },
    ]
    // The clock stands still: no hung attempt ever times out to make room.
    const sandbox = await startTestSandbox({ accounts, clock: new TestClock() })
    cleanups.push(() => sandbox.close())
    const [hangingAccount, promptAccount] = accounts.map((credentials) =>
      sandbox.as(credentials),
    ) as [ApiCaller, ApiCaller]

    // More attempts than the sandbox sends at once over all accounts, each hanging (the
    // time-out never comes), spread over receivers so no single receiver's cap holds them back.
    for (let batch = 0; batch < 15; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          hangingAccount('POST', '/charges', {
            charge_type: 'card_onetime',
            amount: 10,
            currency: 'EUR',
            events_url: hanging[(batch * 20 + index) % hanging.length],
          }),
        ),
      )
    }
    await eventually(async () => {
      expect(timeline.filter((entry) => entry === 'a-received').length).toBeGreaterThanOrEqual(64)
    })

    const charge = await promptAccount('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'EUR',
      events_url: prompt.url,
    })
    expect(charge.status).toBe(201)
    await prompt.until((received) => received.length === 2)

    // Both arrived while every attempt to the hanging receivers was still open: they did not
    // wait for any of those to end.
    const created = timeline.indexOf('b-received charge.created')
    const confirmed = timeline.indexOf('b-received charge.confirmed')
    expect(created).toBeGreaterThanOrEqual(0)
    expect(confirmed).toBeGreaterThanOrEqual(0)
    expect(timeline.slice(0, Math.max(created, confirmed))).not.toContain('a-closed')
    expect(prompt.received.map(({ type }) => type).sort()).toEqual([
      'charge.confirmed',
      'charge.created',
    ])
  })
})
