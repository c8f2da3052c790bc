import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../src/index'
import {
  authorization,
  eventually,
  type Receiver,
  startReceiver,
  startTestSandbox,
  TestClock,
  type TestSandbox,
} from '../src/testing/index'

/**
 * The test kit of `@chargekit/sandbox/testing`: the clock the sandbox's timed work and delivery
 * retries follow, the test sandbox with its in-process callers and seeded flows, the receiver.
 */

describe('TestClock', () => {
  it('runs the wake-ups that come due, earliest first, and none before its time', async () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00Z'))
    const woken: string[] = []
    const wakeUpAt = (offset: number, name: string) =>
      clock.wakeAt(clock.now() + offset, () => woken.push(name))
    wakeUpAt(300, 'third')
    wakeUpAt(100, 'first')
    const cancel = wakeUpAt(200, 'cancelled')
    wakeUpAt(250, 'second')
    cancel()

    expect(clock.now()).toBe(Date.parse('2030-01-01T00:00:00Z'))
    expect(clock.nextWakeUpAt).toBe(clock.now() + 100)
    clock.advance(99)
    await new Promise(setImmediate)
    expect(woken).toEqual([])

    clock.advance(161)
    await eventually(() => woken.length === 2)
    expect(woken).toEqual(['first', 'second'])
    expect(clock.advanceToNextWakeUp()).toBe(true)
    await eventually(() => woken.length === 3)
    expect(woken).toEqual(['first', 'second', 'third'])
    expect(clock.advanceToNextWakeUp()).toBe(false)
    expect(clock.now()).toBe(Date.parse('2030-01-01T00:00:00.300Z'))
  })

  it('wakes at once what is already due, never what was cancelled, and refuses to go back', async () => {
    const clock = new TestClock(0)
    let woken = false
    clock.wakeAt(0, () => {
      woken = true
    })
    await eventually(() => woken)
    // Cancelled once due but before its turn came: it never runs.
    let late = false
    const cancel = clock.wakeAt(10, () => {
      late = true
    })
    clock.advance(10)
    cancel()
    await new Promise(setImmediate)
    await new Promise(setImmediate)
    expect(late).toBe(false)
    expect(() => clock.advance(-1)).toThrow(
      'TestClock.advance: ms must be a finite number >= 0; got -1',
    )
  })

  it('must be an object with now and wakeAt to be the sandbox clock', async () => {
    await expect(startSandbox({ port: 0, clock: { now: () => 0 } as never })).rejects.toThrow(
      'startSandbox: clock must be an object with now, wakeAt methods',
    )
  })
})

describe('a test sandbox on a TestClock', () => {
  const clock = new TestClock()
  let test: TestSandbox
  let refusing: Receiver

  beforeAll(async () => {
    // Answers 500 to the first delivery of charge.created, 200 after: the retry must wait for
    // the clock.
    let refused = false
    refusing = await startReceiver((delivery) => {
      if (delivery.type !== 'charge.created' || refused) return 200
      refused = true
      return 500
    })
    test = await startTestSandbox({ clock })
  })
  afterAll(() => Promise.all([test?.close(), refusing?.stop()]))

  it('retries a delivery when the clock reaches the retry, not before', async () => {
    const { charge } = await test.seed({
      until: 'charge',
      charge: { events_url: `${refusing.url}/hooks` },
    })
    const event = await eventually(async () => {
      const { collection } = (await test.api('GET', `/events?charge=${charge.id}`)).body
      const created = collection.find(
        (listed: { type: string }) => listed.type === 'charge.created',
      )
      expect(created.delivery_status).toBe('failing')
      return created
    })
    const attemptsOfEvent = () => refusing.received.filter(({ id }) => id === event.id).length
    // The schedule's second attempt is 5 s after the first failed, by the sandbox's clock.
    expect(Date.parse(event.next_attempt_at)).toBe(clock.now() + 5_000)
    expect(event.result_status).toBe(500)
    expect(attemptsOfEvent()).toBe(1)

    clock.advance(4_999)
    expect(clock.nextWakeUpAt).toBe(clock.now() + 1)
    clock.advance(1)
    await refusing.until(() => attemptsOfEvent() === 2)
    await eventually(async () =>
      expect((await test.api('GET', `/events/${event.id}`)).body).toMatchObject({
        delivery_status: 'delivered',
        result_status: 200,
      }),
    )
  })

  it('seeds a flow as far as asked, each step as the API answered it', async () => {
    const flow = await test.seed({ until: 'refund', charge: { amount: 25 }, refund: { amount: 5 } })
    expect(flow.charge).toMatchObject({ amount: 25, events_url: test.eventsUrl })
    expect(flow.instrument).toMatchObject({ charge: { id: flow.charge.id }, status: 'authorized' })
    expect(flow.payment).toMatchObject({ amount: 25, status: 'success' })
    expect(flow.refund).toMatchObject({ amount: 5, status: 'success' })
    // Every event reached the kit's receiver.
    await test.receiver.until((received) =>
      ['charge.created', 'payment.success', 'refund.success'].every((type) =>
        received.some(
          (delivery) => delivery.type === type && delivery.body.includes(flow.charge.id),
        ),
      ),
    )

    const recurring = await test.seed({ charge: { charge_type: 'card_recurring', amount: 7 } })
    expect(recurring.payment).toMatchObject({ amount: 7, status: 'success' })
    await expect(test.seed({ charge: { amount: -1 } })).rejects.toThrow(
      /^seed: POST \/v2\/charges answered 400 .*, expected 201$/,
    )
  })

  it('answers alike in-process and over HTTP, with the Basic header authorization() makes', async () => {
    const [account] = test.sandbox.accounts
    if (account === undefined) throw new Error('no account')
    expect(authorization('acct_sandbox', 'sk_sandbox')).toBe(
      `Basic ${Buffer.from('acct_sandbox:sk_sandbox').toString('base64')}`,
    )
    const request = () =>
      new Request(`${test.sandbox.apiUrl}/charges?per_page=1`, {
        headers: { authorization: authorization(account.id, account.key) },
      })
    const [inProcess, overHttp] = await Promise.all([
      test.sandbox.fetch(request()),
      fetch(request()),
    ])
    expect(inProcess.status).toBe(200)
    expect(await inProcess.json()).toEqual(await overHttp.json())
    expect((await test.as({ id: account.id, key: 'sk_wrong' })('GET', '/charges')).status).toBe(401)
    const viaClientFetch = await test.fetch(request())
    expect(viaClientFetch.status).toBe(200)
  })
})
