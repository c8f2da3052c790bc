/**
 * bench/sandbox-memory: memory of a long-running sandbox. 16 clients run full flows (charge →
 * instrument → payment → refund, each POST with an Idempotency-Key, as the client sends them)
 * with delivery on to a local receiver, for BENCH_SOAK_SECONDS (default 60), against a sandbox
 * in its own process that keeps only BENCH_RETAIN_CHARGES charges (default 500, so the bound is
 * reached within seconds). Memory is sampled after a full GC at idle, once the bound is reached
 * and every kept charge replaced once (2 × BENCH_RETAIN_CHARGES flows: caches and compiled code
 * are warm by then), and at the end; the target is memory flat (within 20%) from the second
 * sample to the last, for RSS and for heap per stored charge. Run it short:
 * BENCH_SOAK_SECONDS=15 node bench/run.mjs sandbox-memory
 */
import { type ChildProcess, fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { testCard } from '@chargekit/sandbox/testing'
import { startDeliveryReceiver } from '../support/bare-server'
import { reportFigure, reportRatio } from '../support/report'
import type { MemorySample } from './sandbox-process'

const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60)
const retainCharges = Number(process.env.BENCH_RETAIN_CHARGES ?? 500)
const clients = 16
const auth = `Basic ${Buffer.from('acct_sandbox:sk_sandbox').toString('base64')}`

/** The sandbox's process, and a way to ask it for a memory sample. */
async function startSandboxProcess() {
  const child: ChildProcess = fork(new URL('./sandbox-process.ts', import.meta.url), [
    String(retainCharges),
  ])
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

const receiver = await startDeliveryReceiver()
const sandbox = await startSandboxProcess()
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

const mb = (bytes: number) => bytes / 1024 / 1024
reportFigure(`sandbox soak: full flows in ${soakSeconds} s at ${clients} clients`, flows, 'flows')
reportFigure('sandbox soak: RSS idle, before the soak', mb(idle.rss), 'MB')
if (atLimit === undefined) {
  console.log(
    `RESULT sandbox soak: ${2 * retainCharges} flows (twice the retention bound) were not reached in ${soakSeconds} s MISS`,
  )
} else {
  reportFigure('sandbox soak: RSS after the soak vs idle', end.rss / idle.rss, 'x')
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
