// bench/merchant-tests: what one test of a merchant's costs against the in-process sandbox,
// against the fixed-JSON mocks (msw) the merchant would otherwise write, in one run:
// - one full flow (charge → card instrument → payment → partial refund) through
//   @chargekit/client, sent through `startTestSandbox()`'s in-process transport (its `fetch`),
//   each flow ending when the kit's in-process receiver has every event of the flow (they arrive
//   in any order), so the deliveries are part of the cost; against the same four calls from the
//   same client over the global fetch, answered by msw handlers with fixed JSON (the sandbox's
//   own answers, recorded once, so the client validates the same shapes);
// - start-up: `startTestSandbox()` ready to serve, against msw's `setupServer(...).listen()`;
// - what tests on embedded databases leave behind in the process: the cost of awaiting a promise
//   (which every later test pays at each step) after one such test, against after 11.
// Tests run one call after another, so one flow at a time; the two sides take turns in slices.
// Run: pnpm build && pnpm exec tsx bench/merchant-tests/index.ts
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { type ChargekitClient, createClient } from '@chargekit/client'
import { startTestSandbox, type TestSandbox, testCard } from '@chargekit/sandbox/testing'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { copyDataFolder, databaseTempFolder } from '../../scripts/database-temp-dir.js'
import { measureRate, percentile } from '../support/measure.js'
import { reportFigure, reportRatio } from '../support/report.js'

const accountId = 'acct_sandbox'
const privateKey = 'sk_sandbox'
/** Where the msw side's client sends: msw answers before any connection is made. */
const mockedBaseUrl = 'https://api.chargekit.test'
const rounds = 5
const sliceMs = 1_000
const startUps = 15
/** Tests on embedded databases after the first, before the promise cost is measured again. */
const laterEmbeddedTests = 10

interface FlowAnswers {
  charge: unknown
  instrument: unknown
  payment: unknown
  refund: unknown
}

/** The merchant's flow, through whichever client: the four answers, in order. */
async function fullFlow(client: ChargekitClient, eventsUrl: string): Promise<FlowAnswers> {
  const charge = await client.charges.create({
    charge_type: 'card_onetime',
    amount: 20,
    currency: 'EUR',
    events_url: eventsUrl,
    metadata: { order_id: 'bench' },
    instrument_params: { captured_on_creation: false },
  })
  const instrument = await client.instruments.create(testCard(charge.id))
  const payment = await client.payments.create({
    instrument: instrument.id,
    amount: 20,
    currency: 'EUR',
  })
  const refund = await client.payments.refund(payment.id, { amount: 5 })
  return { charge, instrument, payment, refund }
}

/** The kit's sandbox side: a flow, then its `eventsPerFlow` deliveries at the kit's receiver. */
function sandboxFlow(kit: TestSandbox, eventsPerFlow: number) {
  const client = createClient({ accountId, privateKey, baseUrl: kit.sandbox.url, fetch: kit.fetch })
  let looked = 0
  return async () => {
    const { charge } = await fullFlow(client, kit.eventsUrl)
    const chargeId = (charge as { id: string }).id
    let arrived = 0
    // Only deliveries not looked at yet are read: the list grows through the whole run.
    await kit.receiver.until((received) => {
      for (; looked < received.length; looked++) {
        if (received[looked]?.body.includes(chargeId)) arrived++
      }
      return arrived >= eventsPerFlow
    })
  }
}

/** How many events the recorded flow's charge has, once its last one (the refund's) arrived. */
async function eventsOf(kit: TestSandbox, chargeId: string): Promise<number> {
  await kit.receiver.until((received) =>
    received.some(({ type, body }) => type === 'refund.success' && body.includes(chargeId)),
  )
  const listed = await kit.api('GET', `/events?charge=${chargeId}&per_page=100`)
  return (listed.body as { collection: unknown[] }).collection.length
}

/** msw handlers answering each of the flow's calls with the sandbox's recorded answer. */
function handlersFor(answers: FlowAnswers) {
  const api = `${mockedBaseUrl}/v2`
  const created = (answer: unknown) => {
    const text = JSON.stringify(answer)
    return () =>
      new HttpResponse(text, { status: 201, headers: { 'content-type': 'application/json' } })
  }
  return [
    http.post(`${api}/charges`, created(answers.charge)),
    http.post(`${api}/instruments`, created(answers.instrument)),
    http.post(`${api}/payments`, created(answers.payment)),
    http.post(`${api}/payments/:id/refund`, created(answers.refund)),
  ]
}

async function flowCost() {
  const kit = await startTestSandbox()
  const recorded = await fullFlow(
    createClient({ accountId, privateKey, baseUrl: kit.sandbox.url, fetch: kit.fetch }),
    kit.eventsUrl,
  )
  const mocks = setupServer(...handlersFor(recorded))
  mocks.listen({ onUnhandledRequest: 'error' })
  try {
    // msw replaces the global fetch while it listens: the client reads it at each call.
    const mocked = createClient({
      accountId,
      privateKey,
      baseUrl: mockedBaseUrl,
      fetch: (input, init) => globalThis.fetch(input, init),
    })
    const withSandbox = sandboxFlow(
      kit,
      await eventsOf(kit, (recorded.charge as { id: string }).id),
    )
    const withMocks = async () => {
      await fullFlow(mocked, 'https://shop.example/events')
    }
    let sandboxRate = 0
    let mockRate = 0
    for (let round = 0; round < rounds; round++) {
      mockRate += (await measureRate(withMocks, { durationMs: sliceMs, warmupMs: 200 })).perSecond
      sandboxRate += (await measureRate(withSandbox, { durationMs: sliceMs, warmupMs: 200 }))
        .perSecond
    }
    reportFigure(
      'merchant test: full flow with the test kit, flows/s',
      sandboxRate / rounds,
      'flows/s',
    )
    reportFigure(
      'merchant test: full flow with msw fixed JSON, flows/s',
      mockRate / rounds,
      'flows/s',
    )
    // Time per flow: the inverse of the rates.
    reportRatio(
      'merchant test: time per full flow (4 calls, deliveries received) with startTestSandbox() in-process vs msw handlers returning fixed JSON',
      (1000 * rounds) / sandboxRate,
      (1000 * rounds) / mockRate,
      { atMost: 4 },
      ' ms',
    )
  } finally {
    mocks.close()
    await kit.close()
  }
}

async function startUpCost() {
  const handlers = handlersFor({ charge: {}, instrument: {}, payment: {}, refund: {} })
  const kitStarts: number[] = []
  const mockStarts: number[] = []
  // The first of each loads its modules: left out, as a test file pays that once.
  for (let run = 0; run <= startUps; run++) {
    let started = performance.now()
    const kit = await startTestSandbox()
    const kitMs = performance.now() - started
    await kit.close()
    started = performance.now()
    const mocks = setupServer(...handlers)
    mocks.listen()
    const mockMs = performance.now() - started
    mocks.close()
    if (run === 0) continue
    kitStarts.push(kitMs)
    mockStarts.push(mockMs)
  }
  reportFigure(
    'merchant test: startTestSandbox() start-up, median',
    percentile(kitStarts, 50),
    'ms',
  )
  reportFigure(
    'merchant test: msw setupServer().listen() start-up, median',
    percentile(mockStarts, 50),
    'ms',
  )
  reportFigure(
    'merchant test: startTestSandbox() start-up vs msw setupServer().listen(), medians',
    percentile(kitStarts, 50) / percentile(mockStarts, 50),
    'x',
  )
}

/**
 * A suite that runs some of its tests on embedded databases (`startTestSandbox({ data })`) runs
 * the rest in the same process, where whatever those left behind costs every awaited promise.
 * Measured after the first such test (which may set up what any of them needs) and after 11.
 */
async function costLeftByEmbeddedTests() {
  const folder = await databaseTempFolder('bench')
  try {
    // One database made and migrated, then a copy of its folder for each test, as a suite does.
    const template = join(folder, 'template')
    await (await startTestSandbox({ data: template })).close()
    const testOnEmbedded = async () => {
      const copy = await copyDataFolder(template, 'bench')
      const kit = await startTestSandbox({ data: copy.path })
      await fullFlow(
        createClient({ accountId, privateKey, baseUrl: kit.sandbox.url, fetch: kit.fetch }),
        kit.eventsUrl,
      )
      await kit.close()
      await copy.remove()
    }
    await testOnEmbedded()
    const afterFirst = await awaitedPromiseCost()
    for (let test = 0; test < laterEmbeddedTests; test++) await testOnEmbedded()
    const afterLater = await awaitedPromiseCost()
    reportRatio(
      `merchant test: time to await a promise after ${laterEmbeddedTests + 1} test sandboxes on embedded databases vs after the first`,
      afterLater,
      afterFirst,
      { atMost: 1.5 },
      ' µs',
    )
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/** Microseconds per awaited promise, the median of seven loops. */
async function awaitedPromiseCost(): Promise<number> {
  const awaits = 100_000
  const loops: number[] = []
  for (let loop = 0; loop < 7; loop++) {
    const started = performance.now()
    for (let index = 0; index < awaits; index++) await Promise.resolve(index)
    loops.push(((performance.now() - started) * 1000) / awaits)
  }
  return percentile(loops, 50)
}

await startUpCost()
await flowCost()
await costLeftByEmbeddedTests()
