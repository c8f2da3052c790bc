import type { ServerResponse } from 'node:http'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { eventually, type Receiver, startReceiver } from '../src/testing/index'
import { killRunningClis, stateFlags } from './cli-process'
import { type FreshState, freshDatabase } from './store-under-test'
import {
  expectAllTimedWorkDone,
  failingSomeDeliveries,
  listAll,
  loadUntil,
  startCli,
} from './timed-work-process'

/**
 * Two sandbox processes on one PostgreSQL database, both taking requests and both running timed
 * work: each delivery attempt and each answer or settlement is run by one of them, once; and
 * when one dies mid-load, the other takes over the work it had claimed.
 */
const receivers: Receiver[] = []
const databases: FreshState[] = []
// Not after each test: the tests run at once, each with processes and a database of its own.
afterAll(async () => {
  killRunningClis()
  for (const receiver of receivers.splice(0)) await receiver.stop()
  for (const database of databases.splice(0)) await database.remove()
})

/** Two sandbox processes on one new, empty database. */
async function twoSandboxes() {
  const database = await freshDatabase()
  databases.push(database)
  const [first, second] = await Promise.all([
    startCli(stateFlags(database)),
    startCli(stateFlags(database)),
  ])
  return { first, second }
}

interface EventJson {
  id: string
  result_status: number
  retries_log: unknown[]
}

describe.skipIf(inject('postgresUrl') === undefined)(
  'two sandbox processes sharing a PostgreSQL database',
  { concurrent: true },
  () => {
    it('send each delivery attempt once and apply each answer and settlement once', async () => {
      const receiver = await startReceiver(failingSomeDeliveries())
      receivers.push(receiver)
      const { first, second } = await twoSandboxes()
      // Some 100 events and 250 attempts for the two processes to race on. Few clients, each
      // going several rounds: a client refunds from its second round on.
      let acknowledged = 0
      await loadUntil(
        [first.api, second.api],
        receiver.url,
        3,
        () => acknowledged >= 24,
        () => acknowledged++,
      )
      await expectAllTimedWorkDone(first.api, receiver)
      // Every event reached the receiver once with success, and every attempt either process
      // logged on it (the first, then each retry) was sent once: none twice.
      const events = await listAll<EventJson>(second.api, '/events')
      expect(events.length).toBeGreaterThan(60)
      for (const event of events) {
        const hits = receiver.received.filter(({ id }) => id === event.id)
        expect(hits.length, event.id).toBe(1 + event.retries_log.length)
      }
      expect(receiver.received.length).toBe(
        events.reduce((sum, event) => sum + 1 + event.retries_log.length, 0),
      )
    }, 30_000)

    it('lose nothing when one is killed mid-load: the other takes over its claimed work at once', async () => {
      // Every attempt is held unanswered until the kill, so both processes hold claimed attempts
      // in flight when one dies.
      const held: ServerResponse[] = []
      let holding = true
      const receiver = await startReceiver(() =>
        holding ? (response: ServerResponse) => held.push(response) : 200,
      )
      receivers.push(receiver)
      const { first, second } = await twoSandboxes()
      let acknowledged = 0
      await loadUntil(
        [first.api, second.api],
        receiver.url,
        3,
        () => acknowledged >= 16,
        () => {
          acknowledged++
        },
      )
      // The 16 writes made six charges or more, from both processes, and every event of them
      // goes out at once, to be held.
      await eventually(() => held.length >= 6, { what: 'attempts held' })
      first.run.child.kill('SIGKILL')
      await first.run.exited
      // The killed process's attempts end with its connections: it had claimed work.
      await eventually(
        () => held.some((response) => response.socket === null || response.socket.destroyed),
        { timeoutMs: 5_000, what: 'an attempt of the killed process cut off' },
      )
      holding = false
      for (const response of held) if (!response.socket?.destroyed) response.writeHead(200).end()

      // The survivor keeps taking requests, and finishes what both started, well before any
      // lease (100 s for a delivery, 5 minutes for an answer) of the dead process ran out.
      let more = 0
      await loadUntil(
        [second.api],
        receiver.url,
        2,
        () => more >= 6,
        () => {
          more++
        },
      )
      const state = await expectAllTimedWorkDone(second.api, receiver, 10_000)
      expect(state.payments.length).toBeGreaterThanOrEqual(8)
      second.run.child.kill('SIGTERM')
      expect(await second.run.exited).toBe(0)
    }, 30_000)
  },
)
