/**
 * bench/sandbox: full flows per second (charge → instrument → payment → refund) with 1
 * and 16 concurrent clients, and create-charge throughput, each against a bare node:http server
 * answering a fixed JSON of the same size in the same run; then heap per stored event after
 * 100,000 events. Run: pnpm --filter @chargekit/sandbox... build && pnpm exec tsx bench/sandbox/index.ts
 *
 * The full flows and the first create-charge ratio run with event delivery off: every event
 * delivered to a receiver in this same process is one more HTTP exchange on the same cores, which
 * bench/delivery measures on its own. The create-charge ratio is then measured again with
 * delivery on (events_url to a local receiver, two deliveries per charge: their outbound
 * requests and the receiver's work share the cores with the API; a slice lasts until its
 * deliveries have all arrived, so falling behind them does not pass for speed), against its own
 * target, and against the limit the wire leaves: two rows measure what two bare POSTs per charge cost by
 * themselves (sent as the engine sends, with a delivery's body and headers and nothing else done
 * per delivery), after a bare server's answer and after the delivery-off sandbox's. The rows
 * against the latter, whose target sits within the machine's noise, alternate many short slices.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import { testCard } from '@chargekit/sandbox/testing'
import {
  fixedJsonHandler,
  latestEventJson,
  startBareServer,
  startDeliveryReceiver,
  wirePosts,
} from '../support/bare-server'
import { measureRate } from '../support/measure'
import { reportFigure, reportRatio } from '../support/report'

const defaultRounds = 3
const sliceMs = 1_000
const shortSliceMs = 100
const auth = `Basic ${Buffer.from('acct_sandbox:sk_sandbox').toString('base64')}`
const json = { 'content-type': 'application/json', authorization: auth }

function api(call: (path: string, init: RequestInit) => Promise<Response>) {
  return async (path: string, body: unknown): Promise<{ id: string }> => {
    const response = await call(path, { method: 'POST', headers: json, body: JSON.stringify(body) })
    if (response.status !== 201)
      throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
    return (await response.json()) as { id: string }
  }
}

/** One transaction: charge → instrument → payment (capture) → partial refund: 4 requests. */
function flow(post: ReturnType<typeof api>, eventsUrl: string) {
  return async () => {
    const charge = await post('/charges', {
      charge_type: 'card_onetime',
      amount: 20,
      currency: 'USD',
      events_url: eventsUrl,
      metadata: { order_id: 'bench' },
      instrument_params: { captured_on_creation: false },
    })
    const instrument = await post('/instruments', testCard(charge.id))
    const payment = await post('/payments', {
      instrument: instrument.id,
      amount: 20,
      currency: 'USD',
    })
    await post(`/payments/${payment.id}/refund`, { amount: 5 })
  }
}

/**
 * Measures the sandbox and its baseline in alternating slices (ABABAB) and averages them, so a
 * change in machine load (two cores shared with other work) affects both sides alike. Each side
 * is a function measuring one slice's rate.
 */
async function interleaved(
  measure: () => Promise<number>,
  measureBaseline: () => Promise<number>,
  rounds = defaultRounds,
) {
  let value = 0
  let base = 0
  for (let round = 0; round < rounds; round++) {
    base += await measureBaseline()
    value += await measure()
  }
  return { value: value / rounds, base: base / rounds }
}

/** Operations per second with `concurrency` callers, over one slice after a warm-up. */
function rate(operation: () => Promise<unknown>, concurrency: number) {
  return async () =>
    (await measureRate(operation, { durationMs: sliceMs, warmupMs: 200, concurrency })).perSecond
}

/**
 * One slice of `operation` with `concurrency` callers, where each operation makes `deliveries`
 * deliveries to `receiver`: the slice ends when every one of them has arrived, so a sender that
 * falls behind its deliveries pays for the backlog it leaves instead of looking faster for it.
 */
function deliveredSlice(
  operation: () => Promise<unknown>,
  deliveries: number,
  concurrency: number,
  receiver: { received(): number },
) {
  return async (durationMs: number) => {
    const before = receiver.received()
    const started = performance.now()
    const { operations } = await measureRate(operation, { durationMs, warmupMs: 0, concurrency })
    while (receiver.received() < before + deliveries * operations) {
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    return { operations, seconds: (performance.now() - started) / 1000 }
  }
}

/** Operations per second over one delivered slice (see {@link deliveredSlice}), after a short one. */
function deliveredRate(...args: Parameters<typeof deliveredSlice>) {
  const slice = deliveredSlice(...args)
  return async () => {
    await slice(200)
    const { operations, seconds } = await slice(sliceMs)
    return operations / seconds
  }
}

/**
 * For the rows whose target sits within the machine's noise: many short delivered slices of each
 * side in turn, ordered ABBA so that a drift in the machine's speed weighs on both alike, and each
 * side's rate from its sums. This machine's speed moves threefold within seconds, which left a
 * ratio of eight 1 s rounds a tenth apart from one run to the next; 100 pairs of 100 ms slices
 * keep it within a few hundredths.
 */
async function alternatingSlices(
  slice: ReturnType<typeof deliveredSlice>,
  baselineSlice: ReturnType<typeof deliveredSlice>,
  pairs = 100,
) {
  const slices = { value: slice, base: baselineSlice }
  const sums = { value: { operations: 0, seconds: 0 }, base: { operations: 0, seconds: 0 } }
  for (let pair = 0; pair < pairs; pair++) {
    const turns = pair % 2 === 0 ? (['base', 'value'] as const) : (['value', 'base'] as const)
    for (const side of turns) {
      const { operations, seconds } = await slices[side](shortSliceMs)
      sums[side].operations += operations
      sums[side].seconds += seconds
    }
  }
  return {
    value: sums.value.operations / sums.value.seconds,
    base: sums.base.operations / sums.base.seconds,
  }
}

async function throughput(
  sandbox: Sandbox,
  delivering: Sandbox,
  deliveringUnsigned: Sandbox,
  receiver: Awaited<ReturnType<typeof startDeliveryReceiver>>,
) {
  const eventsUrl = receiver.url
  const post = api((path, init) => fetch(`${sandbox.apiUrl}${path}`, init))
  const chargeBody = JSON.stringify({
    charge_type: 'card_onetime',
    amount: 20,
    currency: 'USD',
    events_url: eventsUrl,
    metadata: { order_id: 'bench' },
  })
  const createCharge = async () => {
    const response = await fetch(`${sandbox.apiUrl}/charges`, {
      method: 'POST',
      headers: json,
      body: chargeBody,
    })
    await response.text()
  }
  // The baseline answers the same request with a real charge's JSON text: same bytes out.
  const sample = await fetch(`${sandbox.apiUrl}/charges`, {
    method: 'POST',
    headers: json,
    body: chargeBody,
  })
  const sampleText = await sample.text()
  const bare = await startBareServer(fixedJsonHandler(sampleText, 201))
  const bareRequest = async () => {
    const response = await fetch(bare.url, { method: 'POST', headers: json, body: chargeBody })
    await response.text()
  }
  const bareFlow = async () => {
    for (let step = 0; step < 4; step++) await bareRequest()
  }

  for (const concurrency of [1, 16]) {
    const flows = await interleaved(
      rate(flow(post, eventsUrl), concurrency),
      rate(bareFlow, concurrency),
    )
    reportFigure(`sandbox full flows/s, ${concurrency} client(s)`, flows.value, 'flows/s')
    reportRatio(
      `sandbox full flow rate vs bare node:http (4 fixed-JSON requests), ${concurrency} client(s)`,
      flows.value,
      flows.base,
      { atLeast: 0.4 },
      ' flows/s',
    )
  }
  const charges = await interleaved(rate(createCharge, 16), rate(bareRequest, 16))
  reportRatio(
    'sandbox create-charge throughput with delivery off vs bare node:http fixed JSON (16 clients)',
    charges.value,
    charges.base,
    { atLeast: 0.4 },
    ' req/s',
  )
  const createOn = (target: Sandbox) => async () => {
    const response = await fetch(`${target.apiUrl}/charges`, {
      method: 'POST',
      headers: json,
      body: chargeBody,
    })
    await response.text()
  }
  const withDeliveries = deliveredRate(createOn(delivering), 2, 16, receiver)
  // Its first deliveries load the transport and compile the engine's paths: not measured.
  await withDeliveries()
  const delivered = await interleaved(withDeliveries, rate(bareRequest, 16))
  reportRatio(
    'sandbox create-charge throughput with delivery on (2 deliveries each to a local receiver, counted until received) vs bare node:http fixed JSON (16 clients)',
    delivered.value,
    delivered.base,
    { atLeast: 0.45 },
    ' req/s',
  )
  // The bare POSTs carry what the engine's deliveries carry: a charge event's compact JSON and, as
  // the sandbox signs by default, the signature's headers (values of the same length, not computed).
  const deliveryBody = await latestEventJson(delivering.apiUrl, json)
  const wire = wirePosts(eventsUrl, deliveryBody, 'signed')
  const unsignedWire = wirePosts(eventsUrl, deliveryBody, 'unsigned')
  const bareDelivering = await startBareServer(
    fixedJsonHandler(sampleText, 201, () => {
      wire.post()
      wire.post()
    }),
  )
  const bareRequestDelivered = async () => {
    const response = await fetch(bareDelivering.url, {
      method: 'POST',
      headers: json,
      body: chargeBody,
    })
    await response.text()
  }
  const wireCost = await interleaved(
    deliveredRate(bareRequestDelivered, 2, 16, receiver),
    rate(bareRequest, 16),
  )
  reportFigure(
    'sandbox limit: bare node:http fixed JSON plus 2 bare POSTs per request to the receiver, as a ratio to bare node:http fixed JSON (16 clients): the most any server delivering 2 events per request reaches here',
    wireCost.value / wireCost.base,
    'x',
  )
  const createThenPost = (posts: ReturnType<typeof wirePosts>) => async () => {
    await createCharge()
    posts.post()
    posts.post()
  }
  const limit = await alternatingSlices(
    deliveredSlice(createOn(delivering), 2, 16, receiver),
    deliveredSlice(createThenPost(wire), 2, 16, receiver),
  )
  reportRatio(
    'sandbox create-charge throughput with delivery on vs the limit: the delivery-off sandbox plus 2 bare POSTs per charge, with the same body and headers (16 clients, 100 alternating pairs of 100 ms slices)',
    limit.value,
    limit.base,
    { atLeast: 0.9 },
    ' req/s',
  )
  // Set beside the row above, what signing costs: an unsigned sandbox against POSTs without the
  // signature's headers.
  // Its first deliveries load its own transport: not measured either.
  await deliveredRate(createOn(deliveringUnsigned), 2, 16, receiver)()
  const unsignedLimit = await alternatingSlices(
    deliveredSlice(createOn(deliveringUnsigned), 2, 16, receiver),
    deliveredSlice(createThenPost(unsignedWire), 2, 16, receiver),
  )
  reportFigure(
    'sandbox create-charge throughput with delivery on and signing off (signingSecret: false) vs the limit without the signature headers (16 clients, 100 alternating pairs of 100 ms slices)',
    unsignedLimit.value / unsignedLimit.base,
    'x',
  )
  await bareDelivering.close()
  await wire.close()
  await unsignedWire.close()
  await bare.close()
}

/** Heap growth per stored event once 100,000 events are stored (delivery off: storage alone). */
async function memoryPerEvent(eventsUrl: string) {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  // Delivery off: the figure is what storage costs, not the delivery engine's queue. Calls go
  // in-process (sandbox.fetch, the same app without a socket): the stored state is identical,
  // and 67,000 loopback requests would not fit the bench's time budget.
  const sandbox = await startSandbox({ port: 0, deliverEvents: false })
  const post = api((path, init) => sandbox.fetch(new Request(`${sandbox.apiUrl}${path}`, init)))
  const eventsPerFlow = 6 // charge.created/.confirmed, instrument.created/.authorized, payment.success, refund.success
  const target = 100_000
  const run = flow(post, eventsUrl)
  await run() // warm up code paths and caches before the baseline
  gc()
  const before = process.memoryUsage().heapUsed
  const flows = Math.ceil(target / eventsPerFlow)
  let next = 0
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < flows) {
        next++
        await run()
      }
    }),
  )
  const stored = await fetch(`${sandbox.apiUrl}/events?per_page=1`, { headers: json })
  const total = ((await stored.json()) as { pagination: { total: number } }).pagination.total
  gc()
  const after = process.memoryUsage().heapUsed
  const events = total - eventsPerFlow
  reportFigure('sandbox events stored', events, 'events')
  reportRatio(
    'sandbox heap per stored event vs 4 KB',
    (after - before) / events,
    4096,
    { atMost: 1 },
    ' B',
  )
  await sandbox.close()
}

const receiver = await startDeliveryReceiver()
const sandbox = await startSandbox({ port: 0, deliverEvents: false })
const delivering = await startSandbox({ port: 0 })
const deliveringUnsigned = await startSandbox({ port: 0, signingSecret: false })
await throughput(sandbox, delivering, deliveringUnsigned, receiver)
await sandbox.close()
await delivering.close()
await deliveringUnsigned.close()
await memoryPerEvent(receiver.url)
await receiver.close()
