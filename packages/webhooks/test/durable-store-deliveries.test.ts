import { createServer } from 'node:http'
import type { ChargekitClient } from '@chargekit/client'
import { startTestSandbox, type TestSandbox, testCard } from '@chargekit/sandbox/testing'
import type { Event } from '@chargekit/schemas'
import {
  createMemoryDeliveryStore,
  createNodeMiddleware,
  createSqlDeliveryStore,
  createWebhooks,
  type DeliveryStore,
} from '@chargekit/webhooks'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { listen, type TestServer } from './support/http'
import { inProcessClient } from './support/in-process-client'
import { freshTable, openPglite, openPostgres, type TestDatabase } from './support/sql-databases'

// The sandbox delivers a real charge's events to receivers that restart, or that run side by
// side on one database, and redelivers them: each event's handler must run exactly once.

/** The run's PostgreSQL server (see vitest.config.ts); undefined where none could start. */
const postgres = inject('postgresUrl')

let sandbox: TestSandbox
let client: ChargekitClient
const cleanups: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  // Deliveries reach the receivers over HTTP; the client's calls go to the sandbox in-process.
  sandbox = await startTestSandbox()
  client = inProcessClient(sandbox)
})
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  await sandbox?.close()
})

/** How many times each event's handler ran, over every receiver of a test. */
type Runs = Map<string, number>

/** A merchant process: a webhooks receiver on `store`, serving node:http. */
async function startReceiver(store: DeliveryStore, runs: Runs): Promise<TestServer> {
  const webhooks = createWebhooks({ client, store })
  webhooks.onAny((event) => {
    runs.set(event.id, (runs.get(event.id) ?? 0) + 1)
  })
  const receiver = await listen(createServer(createNodeMiddleware(webhooks)))
  cleanups.push(receiver.close)
  return receiver
}

/**
 * The merchant's public address, in front of its processes (a load balancer): each delivery
 * goes to the next of `route`'s receivers in turn; `routed` lists where each one went.
 */
async function startFrontDoor() {
  let receivers: string[] = []
  let next = 0
  const routed: string[] = []
  const door = await listen(
    createServer(async (request, response) => {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const target = receivers[next++ % receivers.length] as string
      routed.push(target)
      const answer = await fetch(`${target}${request.url}`, {
        method: 'POST',
        headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
        body: Buffer.concat(chunks),
      })
      response.writeHead(answer.status, { 'content-type': 'application/json' })
      response.end(await answer.text())
    }),
  )
  cleanups.push(door.close)
  return {
    url: door.url,
    routed,
    route(...urls: string[]) {
      receivers = urls
    },
  }
}

/** A paid one-time charge whose events go to `eventsUrl`; resolves once all were delivered. */
async function deliveredFlow(eventsUrl: string): Promise<Event[]> {
  const charge = await client.charges.create({
    charge_type: 'card_onetime',
    amount: 40,
    currency: 'EUR',
    events_url: eventsUrl,
    channels: ['card_onetime_no_processor'],
  })
  await client.instruments.create(testCard(charge.id))
  let events: Event[] = []
  await expect
    .poll(
      async () => {
        events = []
        for await (const event of client.events.list({ charge: charge.id })) events.push(event)
        return events.length > 0 && events.every((event) => event.delivery_status === 'delivered')
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(true)
  return events
}

/** Asks the sandbox to deliver every event again, `times` times, all at once. */
async function redeliverAll(events: readonly Event[], times = 1): Promise<number[]> {
  const attempts = events.flatMap((event) =>
    Array.from({ length: times }, () => client.events.redeliver(event.id)),
  )
  return (await Promise.all(attempts)).map((event) => event.result_status)
}

function onceEach(events: readonly Event[]): Runs {
  return new Map(events.map((event) => [event.id, 1]))
}

const durableDatabases = [
  { name: 'PGlite', skip: false, connect: openPglite },
  {
    name: 'PostgreSQL',
    skip: postgres === undefined,
    async connect() {
      const url = postgres ?? ''
      const db = openPostgres(url)
      return {
        ...db,
        async restart() {
          await db.close()
          return openPostgres(url)
        },
      }
    },
  },
]

describe.each(durableDatabases)('createSqlDeliveryStore on $name', ({ connect, skip }) => {
  it.skipIf(skip)(
    'runs no handler again for events redelivered after the receiver restarts',
    async () => {
      const table = freshTable('restart')
      const runs: Runs = new Map()
      const storeOn = async (db: TestDatabase) => {
        const store = createSqlDeliveryStore({ query: db.query, table })
        await store.migrate()
        return store
      }
      const door = await startFrontDoor()

      const before = await connect()
      const first = await startReceiver(await storeOn(before), runs)
      door.route(first.url)
      const events = await deliveredFlow(door.url)
      expect(runs).toEqual(onceEach(events))

      // The process goes away, database connection (or embedded database) and all, and a new one
      // takes the merchant's address.
      await first.close()
      const after = await before.restart()
      cleanups.push(() => after.close())
      const second = await startReceiver(await storeOn(after), runs)
      door.route(second.url)

      const start = door.routed.length
      expect(await redeliverAll(events)).toEqual(events.map(() => 200))
      expect(runs).toEqual(onceEach(events))
      expect(door.routed.slice(start)).toEqual(events.map(() => second.url))
    },
    30_000,
  )
})

describe.skipIf(postgres === undefined)('two merchant processes on one PostgreSQL database', () => {
  it('run each event once, whichever of them each delivery reaches, concurrent ones too', async () => {
    const table = freshTable('shared')
    const runs: Runs = new Map()
    const receivers: string[] = []
    for (let index = 0; index < 2; index++) {
      const db = openPostgres(postgres ?? '') // a pool of its own, as a process has
      cleanups.push(() => db.close())
      const store = createSqlDeliveryStore({ query: db.query, table })
      await store.migrate()
      receivers.push((await startReceiver(store, runs)).url)
    }
    const door = await startFrontDoor()
    door.route(...receivers)

    const events = await deliveredFlow(door.url)
    expect(runs).toEqual(onceEach(events))
    // Each event reaches both processes, one after the other (the door takes turns)...
    for (const event of events) {
      const start = door.routed.length
      for (const _ of receivers) {
        expect((await client.events.redeliver(event.id)).result_status).toBe(200)
      }
      expect(door.routed.slice(start).sort()).toEqual([...receivers].sort())
    }
    // ...then twice more, all at the same time.
    for (const status of await redeliverAll(events, 2)) expect([200, 409]).toContain(status)
    expect(runs).toEqual(onceEach(events))
  }, 30_000)
})

describe('the memory store, for contrast', () => {
  it('runs the handlers again for events redelivered after a restart', async () => {
    const runs: Runs = new Map()
    const door = await startFrontDoor()
    const first = await startReceiver(createMemoryDeliveryStore(), runs)
    door.route(first.url)
    const events = await deliveredFlow(door.url)
    await first.close()
    const second = await startReceiver(createMemoryDeliveryStore(), runs)
    door.route(second.url)

    expect(await redeliverAll(events)).toEqual(events.map(() => 200))
    expect(runs).toEqual(new Map(events.map((event) => [event.id, 2])))
  }, 30_000)
})
