// First the delivery transport alone (transports.ts): node:http against undici's APIs, side by
// side. Then event delivery, at time scale 1, with 1,000 charges (about 5 events each) created
// through a running sandbox's API (in a process of its own, as the service is) and delivered to
// a local node:http receiver in the bench's process, beside the merchant flows:
// - deliveries/s: how fast the engine empties a backlog of those events into the receiver,
//   against the rate a bare keep-alive node:http client reaches on the very same receiver,
//   posting the same deliveries (one charge's events: their compact JSON and headers);
// - delay from each event's creation to its arrival (p50, p99) in a plain run, where events are
//   delivered while the merchant flows are still creating more; its baseline is the p99 round
//   trip of a bare keep-alive node:http POST to the same receiver, sent every few ms during that
//   same run: the delay the loaded process imposes on any request, which no engine can beat.
//   The same delays by the event's place in its charge follow: no event waits for the earlier
//   ones of its charge, so a later place should cost no more than the first.
import { Agent, request, type ServerResponse } from 'node:http'
import { testCard } from '@chargekit/sandbox/testing'
import { compactEvents, signedDeliveryHeaders, startBareServer } from '../support/bare-server.js'
import { startChildProcess } from '../support/child-process.js'
import { measureRate, percentile } from '../support/measure.js'
import { reportAgainstTarget, reportFigure, reportRatio } from '../support/report.js'
import { compareTransports } from './transports.js'

const charges = 1_000
/** Checkouts of the warm-up run, whose figures are not kept. */
const warmUpCharges = 200
/** Merchant flows running at once against the API: each a charge, then its card instrument. */
const flows = 16
/** The engine's per-receiver cap (its default); the baseline client gets as many connections. */
const connections = 64
/**
 * Held deliveries are answered this often, safely inside the engine's 10 s timeout; the gate
 * stays closed for the ones that follow, so a slow creation phase leaks only a few events.
 */
const gateLeakMs = 7_000
const backlogRuns = 3

/** The baseline's event id, as long as the sandbox's own (`ev_` and 32 hex digits). */
const baselineId = `ev_baseline_${'0'.repeat(23)}`

/** The events of one merchant flow (chargeFlow), in the order the sandbox creates them. */
const flowEventTypes = [
  'charge.created',
  'charge.confirmed',
  'instrument.created',
  'instrument.authorized',
  'payment.success',
] as const

const authorization = `Basic ${Buffer.from('acct_sandbox:sk_sandbox').toString('base64')}`

/** Receiver state for one run: when each event id was answered (first time only). */
let answered = new Map<string, number>()
let expected = Number.POSITIVE_INFINITY
let onAllAnswered: () => void = () => {}
/** While gated (backlog run), deliveries are held unanswered. */
let held: ServerResponse[] | undefined

// The merchant's receiver: reads the body, notes the event, answers 200. The baseline drives
// the same handler, so both figures pay for the same receiving work.
const receiver = await startBareServer((incoming, response) => {
  const chunks: Buffer[] = []
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
  incoming.on('end', () => {
    const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }
    if (held !== undefined && id !== baselineId) {
      held.push(response)
      response.once('finish', () => noteAnswered(id))
      return
    }
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end('ok')
    noteAnswered(id)
  })
})

function noteAnswered(id: string) {
  if (id === baselineId) return
  if (!answered.has(id)) answered.set(id, Date.now())
  if (answered.size >= expected) onAllAnswered()
}

function openGate() {
  answerHeld()
  held = undefined
}

function answerHeld() {
  for (const response of held?.splice(0) ?? []) {
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end('ok')
  }
}

await compareTransports()
const baselineDeliveries = await deliveriesOfOneCharge()

try {
  const flowing = await plainRun()
  // Three backlog runs, each with its own bracketing baseline; the median one is reported, so a
  // burst of noise from other processes in one short drain does not decide the figure.
  const backlogs = []
  for (let run = 0; run < backlogRuns; run++) {
    const backlog = await backlogRun()
    const baseline = (backlog.baselineBefore.perSecond + backlog.baselineAfter.perSecond) / 2
    const rate = backlog.drained / backlog.seconds
    backlogs.push({ ...backlog, baseline, rate, ratio: rate / baseline })
    console.log(
      `backlog run ${run + 1}: ${backlog.drained} of ${backlog.events} events drained in ` +
        `${backlog.seconds.toFixed(2)} s = ${rate.toFixed(0)}/s (creating them took ` +
        `${backlog.creationSeconds.toFixed(2)} s); bare client just before and after: ` +
        `${backlog.baselineBefore.perSecond.toFixed(0)} and ${backlog.baselineAfter.perSecond.toFixed(0)}/s`,
    )
  }
  const median = [...backlogs].sort((a, b) => a.ratio - b.ratio)[Math.floor(backlogRuns / 2)]
  if (median === undefined) throw new Error('no backlog run')
  console.log(
    `plain run: ${flowing.events} events created and delivered in ${flowing.seconds.toFixed(2)} s`,
  )
  reportRatio(
    'delivery deliveries/s (backlog of 1,000 charges x events, median of 3) vs bare node:http requests/s to the same receiver',
    median.rate,
    median.baseline,
    { atLeast: 0.5 },
    ' req/s',
  )
  reportFigure(
    'delivery end-to-end events/s (API creating and engine delivering at once)',
    flowing.events / flowing.seconds,
    'events/s',
  )
  reportFigure(
    'delivery delay event creation -> delivery p50 (time scale 1)',
    percentile(flowing.delays, 50),
    'ms',
  )
  reportFigure(
    'delivery delay baseline: bare node:http POST round trip p50 during the plain run',
    percentile(flowing.bareRoundTrips, 50),
    'ms',
  )
  for (const [place, type] of flowEventTypes.entries()) {
    const delays = flowing.delaysByType.get(type) ?? []
    for (const rank of [50, 99]) {
      reportFigure(
        `delivery delay of a charge's event ${place + 1} of ${flowEventTypes.length} (${type}) p${rank}`,
        percentile(delays, rank),
        'ms',
      )
    }
  }
  reportAgainstTarget(
    `delivery delay event creation -> receiver p99 (time scale 1, ${flows} clients) vs bare node:http POST round trip p99 in the same run`,
    percentile(flowing.delays, 99),
    percentile(flowing.bareRoundTrips, 99),
    { atMost: 100 },
    'ms',
  )
} finally {
  await receiver.close()
}

/**
 * Events are delivered while the merchant flows are still creating more, as in real use. A short
 * run first, in the same sandbox process, so the figures are of warm code (compiled, connections
 * open), as in a sandbox that has been up for a while; its events are left out.
 */
async function plainRun() {
  return withSandbox(async (sandbox) => {
    const warmUp = await createEvents(sandbox.apiUrl, warmUpCharges)
    await allAnswered(warmUp.size)
    answered = new Map()
    expected = Number.POSITIVE_INFINITY
    const startedAt = Date.now()
    const sampling = sampleBareRoundTrips()
    const created = await createEvents(sandbox.apiUrl)
    for (const id of warmUp.keys()) created.delete(id)
    await allAnswered(created.size)
    const bareRoundTrips = await sampling.stop()
    const last = Math.max(...answered.values())
    const delaysByType = new Map<string, number[]>()
    for (const [id, { at, type }] of created) {
      const delays = delaysByType.get(type) ?? []
      delays.push((answered.get(id) as number) - at)
      delaysByType.set(type, delays)
    }
    return {
      events: created.size,
      seconds: (last - startedAt) / 1000,
      delays: [...delaysByType.values()].flat(),
      delaysByType,
      bareRoundTrips,
    }
  })
}

/**
 * One bare keep-alive node:http POST to the receiver at a time, every 5 ms, until `stop()`:
 * their round trips (ms) are the latency of the loaded process itself.
 */
function sampleBareRoundTrips() {
  const agent = new Agent({ keepAlive: true })
  const post = bareDeliveryPost(agent)
  const roundTrips: number[] = []
  let stopped = false
  const sampling = (async () => {
    while (!stopped) {
      const started = performance.now()
      await post()
      roundTrips.push(performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  return {
    async stop() {
      stopped = true
      await sampling
      agent.destroy()
      return roundTrips
    },
  }
}

/**
 * The receiver holds the first deliveries unanswered, which fills every slot the engine has for
 * it, so the other events queue up in the engine while the API creates them; the drain is timed
 * from the moment the gate opens. The baseline is measured right before and right after it: on
 * a shared machine the receiver's rate drifts, and bracketing keeps the ratio fair.
 */
async function backlogRun() {
  held = []
  const leak = setInterval(answerHeld, gateLeakMs)
  try {
    return await withSandbox(async (sandbox) => {
      const startedAt = Date.now()
      const createdAt = await createEvents(sandbox.apiUrl)
      const creationSeconds = (Date.now() - startedAt) / 1000
      const baselineBefore = await bareRequestRate()
      clearInterval(leak)
      const drainStart = Date.now()
      const answeredBefore = answered.size
      openGate()
      await allAnswered(createdAt.size)
      const last = Math.max(...answered.values())
      const baselineAfter = await bareRequestRate()
      return {
        events: createdAt.size,
        creationSeconds,
        drained: createdAt.size - answeredBefore,
        seconds: (last - drainStart) / 1000,
        baselineBefore,
        baselineAfter,
      }
    })
  } finally {
    clearInterval(leak)
    openGate()
  }
}

/** A fresh sandbox in its own process (sandbox-process.ts) for one run. */
async function withSandbox<T>(body: (sandbox: { apiUrl: string }) => Promise<T>): Promise<T> {
  answered = new Map()
  expected = Number.POSITIVE_INFINITY
  const sandbox = await startChildProcess<{ apiUrl: string }>(
    new URL('./sandbox-process.ts', import.meta.url),
  )
  try {
    return await body(sandbox.ready)
  } finally {
    await sandbox.close()
  }
}

/** Runs `count` merchant checkouts; answers each event's creation time and type by id. */
async function createEvents(apiUrl: string, count = charges) {
  let next = 0
  await Promise.all(
    Array.from({ length: flows }, async () => {
      while (next < count) await chargeFlow(apiUrl, next++)
    }),
  )
  return eventCreationTimes(apiUrl)
}

/** Resolves once `count` events have been answered by the receiver. */
function allAnswered(count: number) {
  expected = count
  if (answered.size >= count) return Promise.resolve()
  return new Promise<void>((resolve, reject) => {
    onAllAnswered = resolve
    setTimeout(
      () => reject(new Error(`only ${answered.size} of ${count} events arrived within 60 s`)),
      60_000,
    ).unref()
  })
}

/** One merchant checkout: a charge with the receiver as events_url, then its card instrument. */
async function chargeFlow(apiUrl: string, index: number) {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as { id: string }
  }
  const charge = await post('/charges', {
    charge_type: 'card_onetime',
    amount: 25,
    currency: 'EUR',
    events_url: `${receiver.url}/events`,
    metadata: { order_id: `order_${index}` },
  })
  await post('/instruments', testCard(charge.id))
}

/** Creation time and type of every event of the run, from the sandbox's own records. */
async function eventCreationTimes(apiUrl: string) {
  const created = new Map<string, { at: number; type: string }>()
  for (let page = 1; ; page++) {
    const response = await fetch(`${apiUrl}/events?per_page=100&page=${page}`, {
      headers: { authorization },
    })
    if (!response.ok) throw new Error(`GET /events: ${response.status} ${await response.text()}`)
    const list = (await response.json()) as {
      collection: { id: string; type: string; created_at: string }[]
      pagination: { total: number }
    }
    for (const { id, type, created_at } of list.collection) {
      created.set(id, { at: Date.parse(created_at), type })
    }
    if (list.collection.length === 0 || created.size >= list.pagination.total) return created
  }
}

/**
 * The deliveries of one merchant flow's charge as the engine sends them (each event's compact
 * JSON, with its type), under the baseline's event id: the bare client sends these bodies in
 * turn, so the receiver reads and parses as much for it as for the engine's deliveries.
 */
async function deliveriesOfOneCharge() {
  return withSandbox(async ({ apiUrl }) => {
    await createEvents(apiUrl, 1)
    // Delivered means created: the list below then holds every event of the charge.
    await allAnswered(flowEventTypes.length)
    // The sandbox is this run's alone: its events are the one charge's.
    const events = await compactEvents(apiUrl, { authorization }, 'per_page=100')
    return events.map((event) => ({
      type: event.type,
      body: JSON.stringify({ ...event, id: baselineId }),
    }))
  })
}

/** The receiver's own capacity: a keep-alive node:http client POSTing the same kind of request. */
async function bareRequestRate() {
  const agent = new Agent({ keepAlive: true })
  const post = bareDeliveryPost(agent)
  try {
    return await measureRate(post, { durationMs: 1_000, warmupMs: 300, concurrency: connections })
  } finally {
    agent.destroy()
  }
}

/**
 * A POST to the receiver from a bare keep-alive `node:http` client, with a real delivery's body
 * and headers: what the baselines send, so they pay for the same receiving work as the engine's
 * deliveries. Each call sends the next of one charge's deliveries.
 */
function bareDeliveryPost(agent: Agent) {
  const posts = baselineDeliveries.map(({ type, body }) => ({
    url: `${receiver.url}/events?event=${baselineId}&event_type=${type}`,
    body,
    headers: { ...signedDeliveryHeaders(baselineId), 'content-length': Buffer.byteLength(body) },
  }))
  let sent = 0
  return () =>
    new Promise<void>((resolve, reject) => {
      const { url, body, headers } = posts[sent++ % posts.length] as (typeof posts)[number]
      const outgoing = request(url, { method: 'POST', agent, headers })
      outgoing.on('response', (response) => {
        response.resume()
        response.on('end', resolve)
      })
      outgoing.on('error', reject)
      outgoing.end(body)
    })
}
