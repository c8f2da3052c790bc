// The delivery transport, side by side: the same delivery POST (an event's compact JSON, the
// sandbox's headers, the `event`/`event_type` query) sent 64 at a time to one receiver in a
// process of its own, over
// - node:http with a kept-alive, LIFO agent (the engine's transport up to 0.1.0; the baseline);
// - undici's Pool `request()` API (a response object and a body stream per request);
// - undici's Pool `dispatch()` API (a handler object per request, no stream): what the engine
//   sends with now;
// - the same with HTTP/1.1 pipelining (4 requests per connection), the engine's opt-in for
//   receivers that take it.
// The variants take turns in short slices, so a change in the machine's load falls on all of them.
// Each figure is the sending process's CPU time per delivery (what the engine pays on the
// sandbox's cores) and its deliveries per second, as ratios to node:http's in the same run.
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { performance } from 'node:perf_hooks'
import { type Dispatcher, Pool } from 'undici'
import { startChildProcess } from '../support/child-process.js'
import { reportFigure, reportRatio } from '../support/report.js'

const concurrency = 64
const rounds = 5
const sliceMs = 800
const warmUpMs = 300

interface Sender {
  label: string
  send(): Promise<void>
  close(): Promise<void>
}

/** A delivery of the size and shape the sandbox sends. */
function deliveryOf(receiverUrl: string) {
  const eventId = 'ev_a1b2c3d4e5f6a7b8c9d0e1f2'
  const body = JSON.stringify({
    id: eventId,
    type: 'charge.created',
    created_at: '2026-01-01T00:00:00.000Z',
    data: { object: { id: 'ch_a1b2c3d4e5f6a7b8c9d0e1f2', amount: '25.00', currency: 'EUR' } },
  })
  return {
    origin: receiverUrl,
    path: `/events?event=${eventId}&event_type=charge.created`,
    body,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'chargekit-sandbox',
    },
  }
}

function nodeHttp(receiverUrl: string): Sender {
  const delivery = deliveryOf(receiverUrl)
  const { hostname, port } = new URL(receiverUrl)
  const agent = new HttpAgent({ keepAlive: true, scheduling: 'lifo' })
  return {
    label: 'node:http, kept-alive LIFO agent',
    send: () =>
      new Promise((resolve, reject) => {
        const request = httpRequest({
          hostname,
          port,
          path: delivery.path,
          method: 'POST',
          agent,
          headers: delivery.headers,
        })
        request.on('response', (response) => {
          response.resume()
          response.on('end', resolve)
        })
        request.on('error', reject)
        request.end(delivery.body)
      }),
    close: async () => agent.destroy(),
  }
}

function undiciRequest(receiverUrl: string): Sender {
  const delivery = deliveryOf(receiverUrl)
  const pool = new Pool(receiverUrl, { connections: concurrency })
  return {
    label: 'undici Pool request()',
    async send() {
      const { body } = await pool.request({
        path: delivery.path,
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      })
      await body.dump()
    },
    close: () => pool.close(),
  }
}

function undiciDispatch(receiverUrl: string, pipelining = 1): Sender {
  const delivery = deliveryOf(receiverUrl)
  const pool = new Pool(receiverUrl, {
    connections: pipelining > 1 ? Math.ceil(concurrency / pipelining) : concurrency,
    pipelining,
  })
  const options: Dispatcher.DispatchOptions = {
    path: delivery.path,
    method: 'POST',
    headers: delivery.headers,
    body: delivery.body,
  }
  return {
    label:
      pipelining > 1
        ? `undici Pool dispatch(), pipelining ${pipelining}`
        : 'undici Pool dispatch()',
    send: () =>
      new Promise((resolve, reject) => {
        pool.dispatch(options, {
          onRequestStart: () => {},
          onResponseEnd: () => resolve(),
          onResponseError: (_controller, error) => reject(error),
        })
      }),
    close: () => pool.close(),
  }
}

interface Tally {
  deliveries: number
  cpuMicros: number
  seconds: number
}

/** Runs `send` with `concurrency` callers for `durationMs`: deliveries, CPU used, time taken. */
async function slice(send: () => Promise<void>, durationMs: number): Promise<Tally> {
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  const deadline = started + durationMs
  let deliveries = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await send()
        deliveries++
      }
    }),
  )
  const cpu = process.cpuUsage(cpuBefore)
  return {
    deliveries,
    cpuMicros: cpu.user + cpu.system,
    seconds: (performance.now() - started) / 1000,
  }
}

/** Sends with each variant in turn and prints their figures against node:http's. */
export async function compareTransports(): Promise<void> {
  const receiver = await startChildProcess<{ url: string }>(
    new URL('./receiver-process.ts', import.meta.url),
  )
  const url = receiver.ready.url
  const senders = [nodeHttp(url), undiciRequest(url), undiciDispatch(url), undiciDispatch(url, 4)]
  const tallies = senders.map(() => ({ deliveries: 0, cpuMicros: 0, seconds: 0 }))
  try {
    for (const sender of senders) await slice(sender.send, warmUpMs)
    for (let round = 0; round < rounds; round++) {
      for (const [index, sender] of senders.entries()) {
        const tally = await slice(sender.send, sliceMs)
        const total = tallies[index] as Tally
        total.deliveries += tally.deliveries
        total.cpuMicros += tally.cpuMicros
        total.seconds += tally.seconds
      }
    }
  } finally {
    await Promise.all(senders.map((sender) => sender.close()))
    await receiver.close()
  }
  const [baseline, ...others] = senders.map((sender, index) => {
    const { deliveries, cpuMicros, seconds } = tallies[index] as Tally
    return {
      label: sender.label,
      cpuPerDelivery: cpuMicros / deliveries,
      rate: deliveries / seconds,
    }
  })
  if (baseline === undefined) throw new Error('no baseline transport')
  reportFigure(
    `delivery transport ${baseline.label}: sender CPU per delivery`,
    baseline.cpuPerDelivery,
    'µs',
  )
  reportFigure(`delivery transport ${baseline.label}: deliveries/s`, baseline.rate, 'req/s')
  for (const other of others) {
    reportRatio(
      `delivery transport ${other.label} vs ${baseline.label}: sender CPU per delivery`,
      other.cpuPerDelivery,
      baseline.cpuPerDelivery,
      { atMost: 1 },
      ' µs',
    )
    reportRatio(
      `delivery transport ${other.label} vs ${baseline.label}: deliveries/s`,
      other.rate,
      baseline.rate,
      { atLeast: 1 },
      ' req/s',
    )
  }
}
