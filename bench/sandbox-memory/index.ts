/**
 * bench/sandbox-memory: memory of a long-running sandbox. 16 clients run full flows (charge →
 * instrument → payment → refund, each POST with an Idempotency-Key, as the client sends them)
 * with delivery on to a local receiver, for BENCH_SOAK_SECONDS (default 60), against a sandbox
 * in its own process on its default settings (BENCH_RETAIN_CHARGES sets `retainCharges`
 * instead). Memory is sampled after a full GC at idle, once the retention bound is reached and
 * every kept charge replaced once (2 × the bound in flows: caches and compiled code are warm by
 * then), and at the end; the highest RSS is watched throughout. Targets: the highest RSS under
 * 512 MB (what a developer's laptop spares a sandbox beside a test suite), and memory flat
 * (within 20%) from the bound to the end. The same soak then runs against the previous default
 * (BENCH_BASELINE_RETAIN_CHARGES, 50,000 charges; BENCH_BASELINE=off skips it) as the baseline.
 * Run it short: BENCH_SOAK_SECONDS=15 node bench/run.mjs sandbox-memory
 */
import { type ChildProcess, fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { testCard } from '@chargekit/sandbox/testing'
import { startDeliveryReceiver } from '../support/bare-server'
import { reportAgainstTarget, reportFigure, reportRatio } from '../support/report'
import type { MemorySample } from './sandbox-process'

const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60)
const retainSetting = process.env.BENCH_RETAIN_CHARGES ?? 'default'
// What `retainCharges` defaults to: the bound the soak reaches on default settings.
const defaultRetainCharges = 5_000
const baselineRetainCharges = Number(process.env.BENCH_BASELINE_RETAIN_CHARGES ?? 50_000)
const laptopBudgetMb = 512
const clients = 16
const auth = `Basic ${Buffer.from('acct_sandbox:sk_sandbox').toString('base64')}`

/** The sandbox's process, and a way to ask it for a memory sample. */
async function startSandboxProcess(retain: string) {
  const child: ChildProcess = fork(new URL('./sandbox-process.ts', import.meta.url), [retain])
  const next = <T>(kind: string) =>
    new Promise<T>((resolve) => {
      const listen = (message: { kind: string } & T) => {
        if (message.kind !== kind) return
        child.off('message', listen)
        resolve(message)
      }
      child.on('message', listen)
    })
  const { apiUrl } = await next<{ apiUrl: string }>('ready')
  return {
    apiUrl,
    async sample(): Promise<MemorySample> {
      const answer = next<{ sample: MemorySample }>('sample')
      child.send('sample')
      return (await answer).sample
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.send('close')
      }),
  }
}

function poster(apiUrl: string) {
  return async (path: string, body: unknown): Promise<{ id: string }> => {
    const response = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: auth,
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(body),
    })
    if (response.status !== 201)
      throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
    return (await response.json()) as { id: string }
  }
}

const mb = (bytes: number) => bytes / 1024 / 1024

/** One soak against a sandbox keeping `retain` charges; its samples, and the flows it ran. */
async function soak(retain: string, retainCharges: number) {
  const receiver = await startDeliveryReceiver()
  const sandbox = await startSandboxProcess(retain)
  const post = poster(sandbox.apiUrl)
  let flows = 0
  async function flow() {
    const charge = await post('/charges', {
      charge_type: 'card_onetime',
      amount: 20,
      currency: 'USD',
      events_url: receiver.url,
      metadata: { order_id: `order-${flows}` },
      instrument_params: { captured_on_creation: false },
    })
    const instrument = await post('/instruments', testCard(charge.id))
    const payment = await post('/payments', {
      instrument: instrument.id,
      amount: 20,
      currency: 'USD',
    })
    await post(`/payments/${payment.id}/refund`, { amount: 5 })
    flows++
  }

  await flow() // warm up code paths before the idle sample
  const idle = await sandbox.sample()
  const deadline = performance.now() + soakSeconds * 1000
  let atLimit: MemorySample | undefined
  // Sampling pauses the sandbox for a GC, so it happens once during the soak.
  const watcher = (async () => {
    while (atLimit === undefined && performance.now() < deadline) {
      if (flows >= 2 * retainCharges) atLimit = await sandbox.sample()
      else await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })()
  await Promise.all([
    watcher,
    ...Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) await flow()
    }),
  ])
  const end = await sandbox.sample()
  await sandbox.close()
  await receiver.close()
  return { idle, atLimit, end, flows }
}

const retainCharges = retainSetting === 'default' ? defaultRetainCharges : Number(retainSetting)
const settings = retainSetting === 'default' ? 'default settings' : `retainCharges ${retainCharges}`
const { idle, atLimit, end, flows } = await soak(retainSetting, retainCharges)

reportFigure(`sandbox soak: full flows in ${soakSeconds} s at ${clients} clients`, flows, 'flows')
reportFigure('sandbox soak: RSS idle, before the soak', mb(idle.rss), 'MB')
reportAgainstTarget(
  `sandbox highest RSS in a ${soakSeconds} s soak on ${settings}`,
  mb(end.peakRss),
  mb(idle.rss),
  { atMost: laptopBudgetMb },
  'MB',
)
reportFigure(`sandbox soak: RSS after the soak, on ${settings}`, mb(end.rss), 'MB')
if (atLimit === undefined) {
  console.log(
    `RESULT sandbox soak: ${2 * retainCharges} flows (twice the retention bound) were not reached in ${soakSeconds} s MISS`,
  )
} else {
  reportRatio(
    `sandbox RSS after a ${soakSeconds} s soak at ${clients} clients vs once the bound of ${retainCharges} charges was reached`,
    mb(end.rss),
    mb(atLimit.rss),
    { atMost: 1.2 },
    ' MB',
  )
  // The heap a stored charge costs (with its objects, events, deliveries and replays): what the
  // heap grew by from idle, over the charges kept.
  const perCharge = (sample: MemorySample) => (sample.heapUsed - idle.heapUsed) / retainCharges
  reportFigure(
    'sandbox soak: heap per stored charge once the bound was reached',
    perCharge(atLimit),
    'B',
  )
  reportRatio(
    `sandbox heap per stored charge after a ${soakSeconds} s soak vs once the bound was reached`,
    perCharge(end),
    perCharge(atLimit),
    { atMost: 1.2 },
    ' B',
  )
}

if (process.env.BENCH_BASELINE !== 'off') {
  const baseline = await soak(String(baselineRetainCharges), baselineRetainCharges)
  reportFigure(
    `sandbox soak: full flows in ${soakSeconds} s keeping ${baselineRetainCharges} charges (the previous default)`,
    baseline.flows,
    'flows',
  )
  reportRatio(
    `sandbox highest RSS in a ${soakSeconds} s soak, ${settings} vs keeping ${baselineRetainCharges} charges (the previous default)`,
    mb(end.peakRss),
    mb(baseline.end.peakRss),
    { atMost: 1 },
    ' MB',
  )
}
