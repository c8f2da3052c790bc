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
  type SqlQuery,
  signDelivery,
} from '@chargekit/webhooks'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { listen, signingSecret, type TestServer } from './support/http'
import { inProcessClient } from './support/in-process-client'
import { freshTable, openPglite, openPostgres } from './support/sql-databases'

// What an attacker who can reach a merchant's webhook endpoint does with signed deliveries:
// sends them signed with a guessed secret or with the body changed (forged), sends a captured
// one again much later (stale), or at once (replayed), also to a receiver that has restarted.
// Each against a receiver with the memory store and with a durable one.

/** The run's PostgreSQL server (see vitest.config.ts); undefined where none could start. */
const postgres = inject('postgresUrl')

let sandbox: TestSandbox
let client: ChargekitClient
const cleanups: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  sandbox = await startTestSandbox({ signingSecret })
  client = inProcessClient(sandbox)
})
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  await sandbox?.close()
})

/** A delivery as it went over the wire: what an attacker on the path could capture. */
interface Captured {
  pathAndQuery: string
  headers: Record<string, string>
  body: string
}

/** A merchant process: a receiver on `store` that counts each event's handler runs. */
async function startReceiver(store: DeliveryStore, runs: Map<string, number>) {
  const webhooks = createWebhooks({ client, store, secret: signingSecret })
  webhooks.onAny((event) => {
    runs.set(event.id, (runs.get(event.id) ?? 0) + 1)
  })
  const server = await listen(createServer(createNodeMiddleware(webhooks, { path: '/webhooks' })))
  cleanups.push(server.close)
  return server
}

/** Sends a captured (or made-up) delivery to a receiver; resolves to the status it answered. */
async function send(receiver: TestServer, delivery: Captured): Promise<number> {
  const answer = await fetch(`${receiver.url}${delivery.pathAndQuery}`, {
    method: 'POST',
    headers: delivery.headers,
    body: delivery.body,
  })
  await answer.arrayBuffer()
  return answer.status
}

/**
 * A tap in front of the receiver: keeps a copy of every delivery the sandbox sends, its exact
 * bytes and signature headers, and forwards it to the receiver once there is one.
 */
async function startTap() {
  let target: TestServer | undefined
  const captured: Captured[] = []
  const tap = await listen(
    createServer(async (request, response) => {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const headers: Record<string, string> = {}
      for (const name of ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        const value = request.headers[name]
        if (typeof value === 'string') headers[name] = value
      }
      const delivery = {
        pathAndQuery: request.url ?? '/',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      captured.push(delivery)
      // With no receiver yet, the delivery is only captured (and acknowledged, so not retried).
      const status = target === undefined ? 200 : await send(target, delivery)
      response.writeHead(status).end()
    }),
  )
  cleanups.push(tap.close)
  return {
    eventsUrl: `${tap.url}/webhooks`,
    captured,
    forwardTo(receiver: TestServer) {
      target = receiver
    },
  }
}

/** A paid one-time charge whose events go to `eventsUrl`; resolves once all were delivered. */
async function deliveredFlow(eventsUrl: string): Promise<Event[]> {
  const charge = await client.charges.create({
    charge_type: 'card_onetime',
    amount: 12,
    currency: 'EUR',
    events_url: eventsUrl,
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

const onceEach = (events: readonly Event[]) => new Map(events.map((event) => [event.id, 1]))

/** Each store a receiver may keep its deliveries in; `restart` opens it again as a new process would. */
const stores: {
  name: string
  skip: boolean
  open(): Promise<{ store: DeliveryStore; restart(): Promise<DeliveryStore> }>
}[] = [
  {
    name: 'the memory store',
    skip: false,
    async open() {
      const store = createMemoryDeliveryStore()
      // A process restart empties a memory store: only the same process is tested with it.
      return { store, restart: async () => store }
    },
  },
  ...[
    { name: 'PGlite', skip: false, connect: openPglite },
    {
      name: 'PostgreSQL',
      skip: postgres === undefined,
      connect: async () => {
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
  ].map(({ name, skip, connect }) => ({
    name: `createSqlDeliveryStore on ${name}`,
    skip,
    async open() {
      const table = freshTable('signed')
      const on = async ({ query }: { query: SqlQuery }) => {
        const store = createSqlDeliveryStore({ query, table })
        await store.migrate()
        return store
      }
      const db = await connect()
      let current: { close(): Promise<void> } = db
      cleanups.push(() => current.close())
      return {
        store: await on(db),
        async restart() {
          const reopened = await db.restart()
          current = reopened
          return on(reopened)
        },
      }
    },
  })),
]

describe.each(stores)('signed deliveries to a receiver on $name', ({ open, skip }) => {
  it.skipIf(skip)(
    'runs each genuine one once; its replays, at once or after a restart, run nothing',
    async () => {
      const { store, restart } = await open()
      const runs = new Map<string, number>()
      const tap = await startTap()
      tap.forwardTo(await startReceiver(store, runs))
      const events = await deliveredFlow(tap.eventsUrl)
      expect(runs).toEqual(onceEach(events))
      const genuine = [...tap.captured]
      expect(genuine.every((delivery) => delivery.headers['webhook-signature'])).toBe(true)

      const receiver = await startReceiver(await restart(), runs)
      const replays = await Promise.all(genuine.map((delivery) => send(receiver, delivery)))
      expect(replays).toEqual(genuine.map(() => 200))
      expect(runs).toEqual(onceEach(events))
    },
    30_000,
  )

  it.skipIf(skip)(
    'refuses forged and stale ones with 401, and runs nothing',
    async () => {
      const { store } = await open()
      const runs = new Map<string, number>()
      const tap = await startTap()
      // The receiver gets none of the sandbox's own deliveries: every event is new to it.
      const events = await deliveredFlow(tap.eventsUrl)
      const receiver = await startReceiver(store, runs)
      const [genuine, other] = tap.captured
      if (genuine === undefined || other === undefined) throw new Error('nothing was captured')
      const event = events.find((candidate) => candidate.id === genuine.headers['webhook-id'])
      if (event === undefined) throw new Error('the captured delivery names no event of the flow')
      const url = `${receiver.url}${genuine.pathAndQuery}`
      const pathOf = (delivery: { url: string }) => {
        const parsed = new URL(delivery.url)
        return `${parsed.pathname}${parsed.search}`
      }
      const signedAt = async (sentAt: Date, secret = signingSecret) => {
        const delivery = await signDelivery({ event, url, secret, sentAt })
        return { pathAndQuery: pathOf(delivery), headers: delivery.headers, body: delivery.body }
      }
      const minutes = (count: number) => new Date(Date.now() + count * 60_000)

      const attempts: Record<string, Captured> = {
        'signed with a guessed secret': await signedAt(new Date(), `whsec_${btoa('a guess')}`),
        'another type in the signed body': {
          ...genuine,
          body: genuine.body.replace(/"type":"[^"]+"/, '"type":"refund.success"'),
        },
        "one delivery's signature on another's body": { ...other, headers: genuine.headers },
        unsigned: {
          ...genuine,
          headers: { 'content-type': 'application/json' },
        },
        'captured, sent again ten minutes later': await signedAt(minutes(-10)),
        'dated ten minutes ahead': await signedAt(minutes(10)),
      }
      for (const [attempt, delivery] of Object.entries(attempts)) {
        expect({ attempt, status: await send(receiver, delivery) }).toEqual({
          attempt,
          status: 401,
        })
      }
      expect(runs.size).toBe(0)
      // The same event, signed now, is genuine: it was refused for its signature alone.
      expect(await send(receiver, await signedAt(new Date()))).toBe(200)
      expect(runs).toEqual(new Map([[event.id, 1]]))
    },
    30_000,
  )
})
