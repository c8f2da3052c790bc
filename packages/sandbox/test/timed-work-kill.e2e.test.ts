import { afterAll, describe, expect, inject, it } from 'vitest'
import { type Receiver, startReceiver } from '../src/testing/index'
import { killRunningClis, stateFlags } from './cli-process'
import { type FreshState, freshDatabase, freshDataFolder } from './store-under-test'
import {
  expectAllTimedWorkDone,
  failingSomeDeliveries,
  loadUntil,
  settlementDelayMs,
  startCli,
} from './timed-work-process'

/**
 * A sandbox killed with SIGKILL while deliveries wait for their retries, acquirer answers are
 * pending and settlement batches are scheduled, then restarted on the same state: every event
 * it acknowledged reaches the receiver, every answer and settlement is applied exactly once,
 * and what came due while it was down runs as soon as it is back.
 */
const states: FreshState[] = []
const receivers: Receiver[] = []
// Not after each test: the tests run at once, each stopping its own processes.
afterAll(async () => {
  killRunningClis()
  for (const receiver of receivers.splice(0)) await receiver.stop()
  for (const state of states.splice(0)) await state.remove()
})

async function killWithWorkPendingAndRestart(fresh: () => Promise<FreshState>) {
  const state = await fresh()
  states.push(state)
  const args = stateFlags(state)
  const receiver = await startReceiver(failingSomeDeliveries())
  receivers.push(receiver)
  const first = await startCli(args)
  // A random moment: after 8 to 15 acknowledged writes, with answers, settlements and delivery
  // retries pending. Two clients go rounds enough to refund payments most times.
  const killAfter = 8 + Math.floor(Math.random() * 8)
  let acknowledged = 0
  await loadUntil(
    [first.api],
    receiver.url,
    2,
    () => acknowledged >= killAfter,
    () => {
      if (++acknowledged === killAfter) first.run.child.kill('SIGKILL')
    },
  )
  await first.run.exited
  const receivedBeforeRestart = receiver.received.length

  const second = await startCli(args)
  const done = await expectAllTimedWorkDone(second.api, receiver)
  expect(done.payments.length).toBeGreaterThanOrEqual(Math.floor(killAfter / 3))
  // Work was pending at the kill: the restarted sandbox sent some of it.
  expect(receiver.received.length).toBeGreaterThan(receivedBeforeRestart)

  // On schedule: no settlement before its day was up, none later than a moment after it was
  // due or the sandbox was back, whichever came last.
  const created = new Map(done.events.map((event) => [`${event.type} ${event.object_id}`, event]))
  for (const payment of done.payments) {
    const success = Date.parse(created.get(`payment.success ${payment.id}`)?.created_at ?? '')
    const settled = Date.parse(created.get(`payment.settled ${payment.id}`)?.created_at ?? '')
    const due = success + settlementDelayMs
    expect(settled, payment.id).toBeGreaterThanOrEqual(Math.floor(due))
    // Bounded loosely: the suite's other files share the machine with this one.
    expect(settled - Math.max(due, second.readyAt), payment.id).toBeLessThan(5_000)
  }
  second.run.child.kill('SIGTERM')
  expect(await second.run.exited).toBe(0)
}

// The two stores' tests share nothing: they run at once.
describe.concurrent('kill -9 with timed work pending', () => {
  it('resumes every delivery, answer and settlement of an embedded database, once', async () => {
    await killWithWorkPendingAndRestart(freshDataFolder)
  }, 90_000)

  it.skipIf(inject('postgresUrl') === undefined)(
    'resumes every delivery, answer and settlement of a PostgreSQL database, once',
    async () => {
      await killWithWorkPendingAndRestart(freshDatabase)
    },
    90_000,
  )
})
