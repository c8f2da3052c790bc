// bench/client (issue 5): GET /v2/events/{id} through @chargekit/client (validation on and off)
// against raw fetch + JSON parse of the same URL, sequentially and 16 in flight, all against one
// sandbox in one run; then the minified+gzipped size of the client entry bundled with its
// dependencies, with zod and with zod left external.
// Run: pnpm --filter @chargekit/client... build && pnpm exec tsx bench/client/index.ts
import { gzipSync } from 'node:zlib'
import { createClient } from '@chargekit/client'
import { startSandbox } from '@chargekit/sandbox'
import { build } from 'esbuild'
import { percentile } from '../support/measure'
import { reportFigure, reportRatio } from '../support/report'

const accountId = 'acct_sandbox'
const privateKey = 'sk_sandbox'
const durationMs = 8_000
const warmupMs = 1_000

async function main() {
  const sandbox = await startSandbox({ port: 0 })
  try {
    const eventId = await seedEvent(sandbox.url)
    const url = `${sandbox.url}/v2/events/${eventId}`
    const authorization = `Basic ${btoa(`${accountId}:${privateKey}`)}`
    const headers = { accept: 'application/json', authorization }
    const validating = createClient({ accountId, privateKey, baseUrl: sandbox.url })
    const unchecked = createClient({ accountId, privateKey, baseUrl: sandbox.url, validate: false })

    const variants = {
      raw: async () => {
        const response = await fetch(url, { headers })
        if (!response.ok) throw new Error(`raw fetch answered ${response.status}`)
        return response.json()
      },
      validateOn: () => validating.events.retrieve(eventId),
      validateOff: () => unchecked.events.retrieve(eventId),
    }

    for (const concurrency of [1, 16]) {
      const latencies = await interleaved(variants, concurrency)
      const label = concurrency === 1 ? 'sequential' : `${concurrency} in flight`
      const median = (name: keyof typeof variants) => percentile(latencies[name], 50) * 1000
      reportFigure(
        `client GET /v2/events/{id} raw fetch median latency, ${label}`,
        median('raw'),
        'µs',
      )
      reportRatio(
        `client GET /v2/events/{id} validate on, ${label}: median latency`,
        median('validateOn'),
        median('raw'),
        { atMost: 1.1 },
        ' µs',
      )
      reportRatio(
        `client GET /v2/events/{id} validate off, ${label}: median latency`,
        median('validateOff'),
        median('raw'),
        { atMost: 1.03 },
        ' µs',
      )
    }
  } finally {
    await sandbox.close()
  }

  reportFigure('client bundle (min+gzip, with zod)', await bundleSize([]), 'bytes')
  reportFigure('client bundle (min+gzip, zod external)', await bundleSize(['zod']), 'bytes')
}

/**
 * Runs the variants interleaved — each caller picks one at random for every request — and records
 * every request's latency per variant. On a shared, noisy machine this compares the
 * variants under the same load at the same moments, which back-to-back runs cannot: a burst of
 * another process's work hits all three alike. With 16 callers a request's latency includes
 * waiting behind the other 15; every variant waits alike, so the ratio still isolates what the
 * client itself adds per request.
 */
async function interleaved<Name extends string>(
  variants: Record<Name, () => Promise<unknown>>,
  concurrency: number,
): Promise<Record<Name, number[]>> {
  const names = Object.keys(variants) as Name[]
  const latencies = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    Name,
    number[]
  >
  const run = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      // A random variant each time: a fixed order would make one variant always pay for the
      // garbage the one before it left (validation allocates the most).
      const name = names[Math.floor(Math.random() * names.length)] as Name
      const started = performance.now()
      await variants[name]()
      if (record) latencies[name].push(performance.now() - started)
    }
  }
  const callers = (until: number, record: boolean) =>
    Promise.all(Array.from({ length: concurrency }, () => run(until, record)))
  await callers(performance.now() + warmupMs, false)
  await callers(performance.now() + durationMs, true)
  return latencies
}

/** One charge through the client gives a few events; the bench reads the newest. */
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
