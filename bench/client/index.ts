// bench/client: GET /v2/events/{id} through @chargekit/client (validation on and off)
// against raw fetch + JSON parse of the same URL with the same Authorization header, sequentially
// and 16 in flight, all against one sandbox in one run; then the minified+gzipped size of the
// client entry bundled with its dependencies, with zod and with zod left external.
// Run: pnpm --filter @chargekit/client... build && pnpm exec tsx bench/client/index.ts
import { gzipSync } from 'node:zlib'
import { createClient } from '@chargekit/client'
import { startSandbox } from '@chargekit/sandbox'
import { build } from 'esbuild'
import { percentile } from '../support/measure'
import { reportFigure, reportRatio } from '../support/report'

const accountId = 'acct_sandbox'
const privateKey = 'sk_sandbox'
const rounds = 7
const roundMs = 1_200
const warmupMs = 1_000

type Variant = 'raw' | 'rawAbortable' | 'validateOn' | 'validateOff'
const variants: readonly Variant[] = ['raw', 'rawAbortable', 'validateOn', 'validateOff']
// rawAbortable has no target: it shows what making a fetch abortable costs by itself.
const targets: Record<Exclude<Variant, 'raw'>, { label: string; atMost: number | undefined }> = {
  rawAbortable: { label: 'raw fetch with an AbortController and timer', atMost: undefined },
  validateOn: { label: 'validate on', atMost: 1.1 },
  validateOff: { label: 'validate off', atMost: 1.03 },
}
const statistics = [
  { name: 'median', p: 50 },
  { name: 'p90', p: 90 },
  { name: 'p99', p: 99 },
] as const

async function main() {
  const sandbox = await startSandbox({ port: 0 })
  try {
    const eventId = await seedEvent(sandbox.url)
    const url = `${sandbox.url}/v2/events/${eventId}`
    const authorization = `Basic ${btoa(`${accountId}:${privateKey}`)}`
    const headers = { accept: 'application/json', authorization }
    const validating = createClient({ accountId, privateKey, baseUrl: sandbox.url })
    const unchecked = createClient({ accountId, privateKey, baseUrl: sandbox.url, validate: false })
    const requests: Record<Variant, () => Promise<unknown>> = {
      raw: async () => {
        const response = await fetch(url, { headers })
        if (!response.ok) throw new Error(`raw fetch answered ${response.status}`)
        return response.json()
      },
      // The raw request plus the per-attempt abort machinery the client needs to close a
      // timed-out connection: an AbortController whose signal goes to fetch, and a timer.
      rawAbortable: async () => {
        const controller = new AbortController()
        const timer = setTimeout(() => controller.abort(), 30_000)
        try {
          const response = await fetch(url, { headers, signal: controller.signal })
          if (!response.ok) throw new Error(`raw fetch answered ${response.status}`)
          return await response.json()
        } finally {
          clearTimeout(timer)
        }
      },
      validateOn: () => validating.events.retrieve(eventId),
      validateOff: () => unchecked.events.retrieve(eventId),
    }

    for (const concurrency of [1, 16]) {
      const label = concurrency === 1 ? 'sequential' : `${concurrency} in flight`
      await interleaved(requests, concurrency, warmupMs, false)
      const perRound: Record<Variant, number[]>[] = []
      for (let round = 0; round < rounds; round++) {
        perRound.push(await interleaved(requests, concurrency, roundMs, round % 2 === 1))
      }
      for (const variant of ['rawAbortable', 'validateOn', 'validateOff'] as const) {
        const { label: variantLabel, atMost } = targets[variant]
        for (const { name, p } of statistics) {
          const stats = perRound.map((latencies) => ({
            value: percentile(latencies[variant], p) * 1000,
            raw: percentile(latencies.raw, p) * 1000,
          }))
          const ratios = stats.map(({ value, raw }) => value / raw)
          // The round whose ratio is the median (rounds is odd): its latencies are printed too.
          const middle = stats[ratios.indexOf(percentile(ratios, 50))] as (typeof stats)[number]
          const title = `client GET /v2/events/{id} ${variantLabel}, ${label}: ${name} latency, median round of ${rounds} (ratios ${ratios.map((ratio) => ratio.toFixed(3)).join(' ')})`
          // The target is about the typical request; the tail is reported, not judged: on a
          // shared machine p99 mostly measures the neighbours.
          if (name === 'median' && atMost !== undefined) {
            reportRatio(title, middle.value, middle.raw, { atMost }, ' µs')
          } else {
            reportFigure(
              `${title}: ${middle.value.toFixed(1)} µs vs baseline ${middle.raw.toFixed(1)} µs`,
              middle.value / middle.raw,
              'x',
            )
          }
        }
      }
    }
  } finally {
    await sandbox.close()
  }

  reportFigure('client bundle (min+gzip, with zod)', await bundleSize([]), 'bytes')
  reportFigure('client bundle (min+gzip, zod external)', await bundleSize(['zod']), 'bytes')
}

/**
 * Runs the variants interleaved for `durationMs` with `concurrency` callers, and returns every
 * request's latency (ms) per variant. Each caller cycles through the variants, forwards then
 * backwards (A, B, C, C, B, A, …) — and `reversed` starts the other way round — so
 * every variant follows every other equally often: none always pays for the garbage the one before
 * it left (validation allocates the most). Interleaving compares the variants under the same load
 * at the same moments, which back-to-back blocks on a shared, noisy machine cannot. With 16 callers
 * a request's latency includes waiting behind the other 15; every variant waits alike, so the ratio
 * still isolates what the client itself adds per request.
 */
async function interleaved(
  requests: Record<Variant, () => Promise<unknown>>,
  concurrency: number,
  durationMs: number,
  reversed: boolean,
): Promise<Record<Variant, number[]>> {
  const forwards = reversed ? [...variants].reverse() : [...variants]
  const cycle = [...forwards, ...[...forwards].reverse()]
  const latencies: Record<Variant, number[]> = {
    raw: [],
    rawAbortable: [],
    validateOn: [],
    validateOff: [],
  }
  const until = performance.now() + durationMs
  const caller = async (offset: number) => {
    for (let step = offset; performance.now() < until; step++) {
      const variant = cycle[step % cycle.length] as Variant
      const started = performance.now()
      await requests[variant]()
      latencies[variant].push(performance.now() - started)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, (_, index) => caller(index)))
  return latencies
}

/** One charge and its instrument through the client give a few events; the bench reads the newest. */
async function seedEvent(baseUrl: string): Promise<string> {
  const client = createClient({ accountId, privateKey, baseUrl })
  const charge = await client.charges.create({
    charge_type: 'card_onetime',
    amount: 125.5,
    currency: 'USD',
    // Nothing listens there: delivery failures do not touch the API path measured here.
    events_url: 'http://127.0.0.1:9/events',
    metadata: { order_id: 'bench-1' },
  })
  await client.instruments.create({
    charge: charge.id,
    name: 'Bench Holder',
    number: '4242424242424242',
    expiration_month: 12,
    expiration_year: new Date().getFullYear() + 2,
    cvc: '123',
  })
  const page = await client.events.list({ charge: charge.id, per_page: 1 })
  const event = page.collection[0]
  if (event === undefined) throw new Error('the sandbox recorded no event for the seeded charge')
  return event.id
}

/** The whole public entry (`export *`) bundled for browsers, minified, then gzipped. */
async function bundleSize(external: string[]): Promise<number> {
  const result = await build({
    stdin: { contents: "export * from '@chargekit/client'", resolveDir: import.meta.dirname },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external,
    write: false,
    logLevel: 'silent',
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error('esbuild produced no output')
  return gzipSync(output.contents, { level: 9 }).length
}

await main()
