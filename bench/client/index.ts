// bench/client: GET /v2/events/{id} (a full event, ~3 KB of JSON) against one sandbox in its own
// process (sandbox-process.ts), in one run, sequentially and 16 in flight, each figure a ratio to
// raw `fetch` + `JSON.parse` of the same URL with the same Authorization header:
// - @chargekit/client as Node loads it (its default transport there is node:http), validation on
//   and off: the client's targets, and the Node transport's (at or below stripe-node too);
// - @chargekit/client over fetch (the `fetch` option), validation on and off, reported;
// - the peers: stripe-node (its node:http client, `stripe.rawRequest`) and openai-node
//   (`client.get`, over fetch), pointed at the same sandbox;
// then the minified+gzipped size of the client entry bundled with its dependencies.
// Run: pnpm --filter @chargekit/client... build && pnpm exec tsx bench/client/index.ts
import { gzipSync } from 'node:zlib'
import { createClient } from '@chargekit/client'
import { build } from 'esbuild'
import OpenAI from 'openai'
import Stripe from 'stripe'
import { startChildProcess } from '../support/child-process'
import { percentile } from '../support/measure'
import { reportFigure, reportRatio } from '../support/report'

// The sandbox's default account, which sandbox-process.ts seeds.
const accountId = 'acct_sandbox'
const privateKey = 'sk_sandbox'
const authorization = `Basic ${btoa(`${accountId}:${privateKey}`)}`
const rounds = 9
const roundMs = 1_200
const warmupMs = 1_000

const variants = [
  'raw',
  'rawAbortable',
  'clientValidated',
  'clientUnchecked',
  'fetchValidated',
  'fetchUnchecked',
  'stripe',
  'openai',
] as const
type Variant = (typeof variants)[number]

/** What each variant is, and its target as a ratio to raw fetch (undefined: reported only). */
const figures: Record<Exclude<Variant, 'raw'>, { label: string; atMost?: readonly number[] }> = {
  rawAbortable: { label: 'raw fetch with an AbortController and timer' },
  // As Node loads the client, its Node transport is the default: the client's target and the
  // Node transport's both apply to it.
  clientValidated: {
    label: 'client (node:http, its default on Node), validation on',
    atMost: [1.05, 0.85],
  },
  clientUnchecked: {
    label: 'client (node:http, its default on Node), validation off',
    atMost: [1.02],
  },
  fetchValidated: { label: 'client over fetch (the fetch option), validation on' },
  fetchUnchecked: { label: 'client over fetch (the fetch option), validation off' },
  stripe: { label: 'stripe-node (node:http) rawRequest' },
  openai: { label: 'openai-node (fetch) client.get' },
}

const statistics = [
  { name: 'median', p: 50 },
  { name: 'p90', p: 90 },
  { name: 'p99', p: 99 },
] as const

async function main() {
  const sandbox = await startSandboxProcess()
  try {
    const { eventId } = sandbox
    const path = `/v2/events/${eventId}`
    const url = `${sandbox.url}${path}`
    const headers = { accept: 'application/json', authorization }
    const options = { accountId, privateKey, baseUrl: sandbox.url }
    const clientValidated = createClient(options)
    const clientUnchecked = createClient({ ...options, validate: false })
    const fetchValidated = createClient({ ...options, fetch })
    const fetchUnchecked = createClient({ ...options, fetch, validate: false })
    const { hostname, port } = new URL(sandbox.url)
    // Stripe authenticates with a Bearer key; its authenticator hook sends our Basic header.
    const stripe = new Stripe('', {
      host: hostname,
      port,
      protocol: 'http',
      authenticator: async (request) => {
        request.headers.Authorization = authorization
      },
    })
    const openai = new OpenAI({
      apiKey: 'unused',
      baseURL: sandbox.url,
      defaultHeaders: { Authorization: authorization },
    })

    const requests: Record<Variant, () => Promise<unknown>> = {
      raw: async () => {
        const response = await fetch(url, { headers })
        if (!response.ok) throw new Error(`raw fetch answered ${response.status}`)
        return response.json()
      },
      // The raw request plus the per-attempt abort machinery a fetch client needs to close a
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
      clientValidated: () => clientValidated.events.retrieve(eventId),
      clientUnchecked: () => clientUnchecked.events.retrieve(eventId),
      fetchValidated: () => fetchValidated.events.retrieve(eventId),
      fetchUnchecked: () => fetchUnchecked.events.retrieve(eventId),
      stripe: () => stripe.rawRequest('GET', path),
      openai: () => openai.get(path),
    }
    await checkEveryVariantReadsTheEvent(requests, eventId)

    for (const concurrency of [1, 16]) {
      const label = concurrency === 1 ? 'sequential' : `${concurrency} in flight`
      await alternatingSlices(requests, concurrency, warmupMs, false)
      const perRound: Record<Variant, number[]>[] = []
      for (let round = 0; round < rounds; round++) {
        perRound.push(await alternatingSlices(requests, concurrency, roundMs, round % 2 === 1))
      }
      const medians = new Map<Variant, number>()
      for (const variant of variants) {
        if (variant === 'raw') continue
        const { label: variantLabel, atMost } = figures[variant]
        for (const { name, p } of statistics) {
          const stats = perRound.map((latencies) => ({
            value: percentile(latencies[variant], p) * 1000,
            raw: percentile(latencies.raw, p) * 1000,
          }))
          const ratios = stats.map(({ value, raw }) => value / raw)
          // The round whose ratio is the median (rounds is odd): its latencies are printed too.
          const median = percentile(ratios, 50)
          const middle = stats[ratios.indexOf(median)] as (typeof stats)[number]
          if (name === 'median') medians.set(variant, median)
          const title = `client GET /v2/events/{id} ${variantLabel} / raw fetch, ${label}: ${name} latency, median round of ${rounds} (ratios ${ratios.map((ratio) => ratio.toFixed(3)).join(' ')})`
          // The target is about the typical request; the tail is reported, not judged: on a
          // shared machine p99 mostly measures the neighbours.
          if (name === 'median' && atMost !== undefined) {
            for (const target of atMost) {
              reportRatio(title, middle.value, middle.raw, { atMost: target }, ' µs')
            }
          } else {
            reportFigure(
              `${title}: ${middle.value.toFixed(1)} µs vs baseline ${middle.raw.toFixed(1)} µs`,
              middle.value / middle.raw,
              'x',
            )
          }
        }
      }
      // The Node transport's second target: at or below stripe-node's ratio in the same rounds.
      const ours = medians.get('clientValidated') as number
      const stripes = medians.get('stripe') as number
      reportRatio(
        `client (node:http, its default on Node), validation on / stripe-node, ${label} (median ratios to raw fetch ${ours.toFixed(3)} vs ${stripes.toFixed(3)})`,
        ours,
        stripes,
        { atMost: 1 },
      )
    }
  } finally {
    await sandbox.close()
  }

  reportRatio(
    'client bundle (min+gzip, with its dependencies and its response checks) / 20 KB budget',
    await bundleSize(),
    20 * 1024,
    { atMost: 1 },
  )
}

/** A variant that read anything else than the event (a 401, a stub) would make its figure a lie. */
async function checkEveryVariantReadsTheEvent(
  requests: Record<Variant, () => Promise<unknown>>,
  eventId: string,
) {
  for (const [variant, request] of Object.entries(requests)) {
    const body = (await request()) as { id?: unknown }
    if (body?.id !== eventId) {
      throw new Error(`bench variant ${variant} did not read event ${eventId}`)
    }
  }
}

/**
 * Runs the variants for `durationMs` with `concurrency` callers, in short slices of one variant
 * each, cycling through them forwards then backwards (A, B, C, C, B, A, …; `reversed` starts the
 * other way round), and returns every request's latency (ms) per variant. The slices keep the
 * variants close in time, so a moment another process took the CPU spoils a little of every
 * variant's sample instead of one variant's. One variant at a time, not one request each in
 * turn: undici's `fetch` and `node:http` in the same moments slow each other down (measured: the
 * client over node:http 310 µs a call alone, 440–460 µs taking turns with raw fetch; raw fetch
 * 370–460 µs alone, 500–560 µs taking turns), which no application using one of them has. Each
 * slice waits for its requests to finish before the next starts.
 */
async function alternatingSlices(
  requests: Record<Variant, () => Promise<unknown>>,
  concurrency: number,
  durationMs: number,
  reversed: boolean,
): Promise<Record<Variant, number[]>> {
  const forwards = reversed ? [...variants].reverse() : [...variants]
  const cycle = [...forwards, ...[...forwards].reverse()]
  const sliceMs = durationMs / cycle.length
  const latencies = Object.fromEntries(
    variants.map((variant) => [variant, []]),
  ) as unknown as Record<Variant, number[]>
  for (const variant of cycle) {
    const until = performance.now() + sliceMs
    const caller = async () => {
      while (performance.now() < until) {
        const started = performance.now()
        await requests[variant]()
        latencies[variant].push(performance.now() - started)
      }
    }
    await Promise.all(Array.from({ length: concurrency }, caller))
  }
  return latencies
}

/** The sandbox's process, once it has seeded the event the bench reads. */
async function startSandboxProcess() {
  const { ready, close } = await startChildProcess<{ url: string; eventId: string }>(
    new URL('./sandbox-process.ts', import.meta.url),
  )
  return { ...ready, close }
}

/** The whole public entry (`export *`) bundled for browsers, minified, then gzipped. */
async function bundleSize(): Promise<number> {
  const result = await build({
    stdin: { contents: "export * from '@chargekit/client'", resolveDir: import.meta.dirname },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error('esbuild produced no output')
  return gzipSync(output.contents, { level: 9 }).length
}

await main()
