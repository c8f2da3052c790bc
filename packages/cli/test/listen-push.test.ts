import { createServer, request as httpRequest, type Server } from 'node:http'
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net'
import { type ChargekitClient, createClient } from '@chargekit/client'
import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import { startReceiver, testCard } from '@chargekit/sandbox/testing'
import { createSignatureVerifier } from '@chargekit/webhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startInProcess, stopRunningClis } from './cli-process'

// How listen follows events: pushed by a sandbox's event stream, searched on a service without
// one. The search interval is an hour where push is expected, so only a push can deliver.
let sandbox: Sandbox
let client: ChargekitClient
const servers: Server[] = []

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 0.001, deliverEvents: false })
  client = createClient({
    baseUrl: sandbox.url,
    accountId: 'acct_sandbox',
    privateKey: 'sk_sandbox',
  })
})
afterAll(async () => {
  for (const server of servers) server.close()
  await sandbox.close()
})
afterEach(stopRunningClis)

/** A charge and a card, captured on creation: five events. Resolves to the charge's id. */
async function payment(): Promise<string> {
  const charge = await client.charges.create({
    charge_type: 'card_onetime',
    amount: 10,
    currency: 'EUR',
    events_url: 'https://shop.example/events',
  })
  await client.instruments.create(testCard(charge.id))
  return charge.id
}

/** The ids of the charges' events, in the order they were recorded. */
async function eventIds(...charges: string[]): Promise<string[]> {
  const ids: string[] = []
  for (const charge of charges) {
    const events = await client.events.list({ charge }).toArray({ limit: 100 })
    ids.push(...events.map((event) => event.id).reverse())
  }
  return ids
}

/** The API searches (`GET /v2/events`) the account made since `since`. */
async function searchesSince(since: number): Promise<number> {
  const requests = await client.testHelpers.listRequests({ per_page: 100 }).toArray({ limit: 1000 })
  return requests.filter(
    (request) =>
      request.method === 'GET' &&
      request.path === '/v2/events' &&
      Date.parse(request.created_at) >= since,
  ).length
}

/** The sandbox behind a proxy that answers 404 where the production service has no endpoint. */
async function serviceWithoutStream(): Promise<string> {
  const target = new URL(sandbox.url)
  const server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/'
    if (path.startsWith('/v2/events/stream') || path.startsWith('/v2/test/')) {
      outgoing.writeHead(404, { 'content-type': 'application/json' })
      outgoing.end(JSON.stringify({ message: 'Not found' }))
      return
    }
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    incoming.pipe(forwarded)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A TCP hop to the sandbox whose connections can be cut, and refused for a while. */
async function cuttableHop() {
  const target = new URL(sandbox.url)
  const sockets = new Set<Socket>()
  let refusing = false
  const server = createTcpServer((socket) => {
    if (refusing) return socket.destroy()
    const onward = connect(Number(target.port), target.hostname)
    socket.pipe(onward).pipe(socket)
    for (const each of [socket, onward]) {
      sockets.add(each)
      each.on('close', () => sockets.delete(each))
      each.on('error', () => {})
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Drops every open connection and refuses new ones until `resume`. */
    cut() {
      refusing = true
      for (const socket of sockets) socket.destroy()
    },
    resume() {
      refusing = false
    },
    close() {
      refusing = true
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe('chargekit listen', () => {
  it('against a sandbox: forwards each event pushed by its stream, signed with its secret, and never searches', async () => {
    const receiver = await startReceiver(() => 204)
    const secret = sandbox.accounts[0]?.signingSecret as string
    const run = startInProcess(
      ['listen', '--forward-to', `${receiver.url}/webhooks`, '--poll-interval', '3600000'],
      { CHARGEKIT_BASE_URL: sandbox.url },
    )
    await run.waitFor('stderr', /^Ready: .* as they happen \(event stream\)/m)
    expect(run.output().stderr).toContain(`Your signing secret is ${secret}`)
    const readyAt = Date.now()
    const charge = await payment()
    await receiver.until((received) => received.length >= 5)
    expect(await searchesSince(readyAt)).toBe(0)
    expect(receiver.received.map((delivery) => delivery.id)).toEqual(await eventIds(charge))
    const verify = createSignatureVerifier(secret)
    for (const delivery of receiver.received) await verify(delivery.body, delivery.headers)
    await receiver.stop()
  })

  it('against a service without the stream: searches for events, and forwards them unsigned', async () => {
    const receiver = await startReceiver(() => 204)
    const run = startInProcess(
      ['listen', '--forward-to', `${receiver.url}/webhooks`, '--poll-interval', '20'],
      { CHARGEKIT_BASE_URL: await serviceWithoutStream() },
    )
    await run.waitFor('stderr', /^Ready: .* by searching every 20 ms/m)
    expect(run.output().stderr).not.toContain('signing secret')
    const readyAt = Date.now()
    const charge = await payment()
    await receiver.until((received) => received.length >= 5)
    expect(await searchesSince(readyAt)).toBeGreaterThan(0)
    expect(receiver.received.map((delivery) => delivery.id)).toEqual(await eventIds(charge))
    expect(receiver.received[0]?.headers['webhook-signature']).toBeUndefined()
    await receiver.stop()
  })

  it('resumes after a dropped connection with no event lost or repeated', async () => {
    const receiver = await startReceiver(() => 204)
    const hop = await cuttableHop()
    const run = startInProcess(
      ['listen', '--forward-to', `${receiver.url}/webhooks`, '--poll-interval', '3600000'],
      { CHARGEKIT_BASE_URL: hop.url },
    )
    await run.waitFor('stderr', /^Ready: .*event stream/m)
    const before = await payment()
    await receiver.until((received) => received.length >= 5)
    hop.cut()
    // Stored while listen has no connection: sent once it is back.
    const during = await payment()
    await run.waitFor('stderr', /Could not follow events .*; retrying\./)
    hop.resume()
    const after = await payment()
    await receiver.until((received) => received.length >= 15)
    expect(receiver.received.map((delivery) => delivery.id)).toEqual(
      await eventIds(before, during, after),
    )
    await receiver.stop()
    await hop.close()
  }, 15_000)
})
