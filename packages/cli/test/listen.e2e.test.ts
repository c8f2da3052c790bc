import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ChargekitClient, createClient } from '@chargekit/client'
import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import { testCard } from '@chargekit/sandbox/testing'
import { type CompactEventSource, toCompactEvent } from '@chargekit/schemas'
import { createSignatureVerifier } from '@chargekit/webhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../../scripts/free-port'
import { startCli, startInProcess, stopRunningClis } from './cli-process'

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

let sandbox: Sandbox
let client: ChargekitClient
let env: Record<string, string>

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 0.001, deliverEvents: false })
  env = { CHARGEKIT_BASE_URL: sandbox.url }
  client = createClient({
    baseUrl: sandbox.url,
    accountId: 'acct_sandbox',
    privateKey: 'sk_sandbox',
  })
})
afterAll(() => sandbox.close())
afterEach(stopRunningClis)

interface Received {
  url: URL
  headers: IncomingHttpHeaders
  body: string
}

/** A local webhook endpoint: records each request; answers 500 to payment.success, 204 otherwise. */
async function startReceiver() {
  const received: Received[] = []
  const waiters = new Set<() => void>()
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://receiver')
      received.push({ url, headers: request.headers, body })
      if (url.searchParams.get('event_type') === 'payment.success') {
        response.writeHead(500, { 'content-type': 'text/plain' })
        response.end('order 1042 not found\n    at handler (shop.js:12)')
      } else {
        response.writeHead(204)
        response.end()
      }
      for (const wake of waiters) wake()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks?shop=1`,
    received,
    /** Resolves once `count` requests arrived. */
    until: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (received.length >= count) resolve()
        }
        waiters.add(check)
        check()
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A charge and a card, captured on creation: five events. */
async function payment() {
  const charge = await client.charges.create({
    charge_type: 'card_onetime',
    amount: 10,
    currency: 'EUR',
    events_url: 'https://shop.example/events',
    metadata: { order: '1042' },
  })
  await client.instruments.create(testCard(charge.id))
  return charge
}

describe('chargekit listen', () => {
  it('forwards each new event as the service delivers it, signed, one line per event', async () => {
    const receiver = await startReceiver()
    // Events from before listen started are not forwarded.
    await payment()
    const run = startCli(
      ['listen', '--forward-to', receiver.url, '--secret', secret, '--poll-interval', '20'],
      env,
    )
    await run.waitFor('stderr', /^Ready: following the events of acct_sandbox/m)
    const charge = await payment()
    await receiver.until(5)
    await run.waitFor('stdout', /payment\.success.*\n/)
    const events = (await client.events.list({ charge: charge.id })).collection.reverse()
    expect(events.map((event) => event.type)).toEqual([
      'charge.created',
      'charge.confirmed',
      'instrument.created',
      'instrument.authorized',
      'payment.success',
    ])
    expect(receiver.received).toHaveLength(5)
    const verify = createSignatureVerifier(secret)
    for (const [index, delivery] of receiver.received.entries()) {
      const event = events[index]
      if (event === undefined) throw new Error('fewer events than deliveries')
      expect(delivery.url.pathname).toBe('/webhooks')
      expect(Object.fromEntries(delivery.url.searchParams)).toEqual({
        shop: '1',
        event: event.id,
        event_type: event.type,
      })
      expect(delivery.headers['content-type']).toBe('application/json')
      expect(JSON.parse(delivery.body)).toEqual(toCompactEvent(event as CompactEventSource))
      expect(delivery.headers['webhook-id']).toBe(event.id)
      await verify(delivery.body, delivery.headers)
    }
    const lines = run.output().stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(5)
    expect(lines[0]).toMatch(
      new RegExp(
        `^${events[0]?.created_at}  charge\\.created\\s+${events[0]?.id}  \\[204\\]\\s+\\d+ ms$`,
      ),
    )
    expect(lines[4]).toMatch(
      /payment\.success\s+ev_\w+ {2}\[500\]\s+\d+ ms {2}500 order 1042 not found$/,
    )

    run.stop('SIGTERM')
    expect(await run.exited).toBe(0)
    expect(run.output().stderr).toContain(
      `Stopped. Resume with: chargekit listen --since ${events[4]?.created_at} --forward-to ${receiver.url}`,
    )
    await receiver.close()
  })

  it('resumes with --since, over several pages, with no event missed or repeated', async () => {
    const since = new Date().toISOString()
    // 105 events: more than one page of 100.
    const charges = await Promise.all(Array.from({ length: 21 }, () => payment().then((c) => c.id)))
    const run = startInProcess(['listen', '--since', since, '--json', '--poll-interval', '20'], env)
    const refused = startInProcess(
      ['listen', '--since', since, '--forward-to', `http://127.0.0.1:${await freePort()}/`],
      env,
    )
    // A receiver that takes the request and never answers.
    const hanging = createServer(() => {})
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    const slow = startInProcess(
      [
        'listen',
        '--since',
        since,
        '--forward-timeout',
        '0.2',
        '--forward-to',
        `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`,
      ],
      env,
    )
    await run.waitFor('stderr', /^Ready/m)
    // New events arriving while listen pages through the old ones.
    const later = await payment()
    const expected = await client.events
      .list({ created_gte: since, per_page: 100 })
      .toArray({ limit: 1000 })
    expect(expected.length).toBe(21 * 5 + 5)
    // Anchored: the output is matched again at every line it grows by.
    await run.waitFor('stdout', new RegExp(`^(?:.*\\n){${expected.length}}`))
    const seen = run
      .output()
      .stdout.trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as { id: string; created_at: string; charge: string })
    expect(seen).toHaveLength(expected.length)
    expect(new Set(seen.map((event) => event.id))).toEqual(
      new Set(expected.map((event) => event.id)),
    )
    // Oldest first.
    const times = seen.map((event) => event.created_at)
    expect(times).toEqual([...times].sort())
    expect(new Set(seen.map((event) => event.charge))).toEqual(new Set([...charges, later.id]))
    run.stop('SIGINT')
    expect(await run.exited).toBe(0)

    const [line] = await refused.waitFor('stdout', /^.*\n/)
    expect(line).toMatch(/^\S+ {2}charge\.created\s+ev_\w+ {2}\[ERR\]\s+\d+ ms {2}ECONNREFUSED\n$/)
    refused.stop('SIGINT')
    expect(await refused.exited).toBe(0)
    const [timedOut] = await slow.waitFor('stdout', /^.*\n/)
    expect(timedOut).toMatch(/ {2}\[ERR\]\s+\d+ ms {2}timeout after 0\.2 s\n$/)
    slow.stop('SIGTERM')
    expect(await slow.exited).toBe(0)
    hanging.closeAllConnections()
    await new Promise<void>((resolve) => hanging.close(() => resolve()))
  })
})
