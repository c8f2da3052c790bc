// chargekit listen's delay from an event's creation to its forward, in one run against one
// sandbox (in a process of its own, as the service is): through the sandbox's event stream
// (push), and through the event search every second (the default poll interval, as listen
// follows a service without the stream) as the baseline. Each mode runs its own listen, in this
// process, over 40 charges (200 events) created one every 50 ms; a forward's delay is when the
// receiver got it minus the event's `created_at`. The stream's p99 is held to 100 ms.
import { createClient } from '@chargekit/client'
import { testCard } from '@chargekit/sandbox/testing'
import { runCli } from '../../packages/cli/src/run-cli.js'
import { createTerminal } from '../../packages/cli/src/terminal.js'
import { startBareServer } from '../support/bare-server.js'
import { startChildProcess } from '../support/child-process.js'
import { percentile } from '../support/measure.js'
import { reportAgainstTarget, reportFigure } from '../support/report.js'

const charges = 40
const eventsPerCharge = 5

const sandbox = await startChildProcess<{ url: string }>(
  new URL('./sandbox-process.ts', import.meta.url),
)
const client = createClient({
  baseUrl: sandbox.ready.url,
  accountId: 'acct_sandbox',
  privateKey: 'sk_sandbox',
})

/** Forwards received, by event id: when each arrived and the event's creation time. */
const arrived = new Map<string, { at: number; createdAt: number }>()
const receiver = await startBareServer((incoming, response) => {
  const chunks: Buffer[] = []
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
  incoming.on('end', () => {
    const at = Date.now()
    const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }
    arrived.set(id, { at, createdAt: Number.NaN })
    response.writeHead(204)
    response.end()
  })
})

/** Runs listen against `baseUrl` while charges are created; the delays of its forwards, in ms. */
async function delays(baseUrl: string, pollIntervalMs: number): Promise<number[]> {
  arrived.clear()
  const stop = new AbortController()
  let ready: () => void = () => {}
  const isReady = new Promise<void>((resolve) => {
    ready = resolve
  })
  const terminal = createTerminal({
    stdout: { write: () => true },
    stderr: {
      write: (text: string) => {
        if (text.startsWith('Ready')) ready()
        return true
      },
    },
    env: {},
  })
  const listening = runCli(
    ['listen', '--forward-to', `${receiver.url}/events`, '--poll-interval', String(pollIntervalMs)],
    { terminal, env: { CHARGEKIT_BASE_URL: baseUrl }, signal: stop.signal },
  )
  await isReady
  const ids: string[] = []
  for (let index = 0; index < charges; index++) {
    const charge = await client.charges.create({
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'EUR',
      events_url: 'https://shop.example/events',
    })
    await client.instruments.create(testCard(charge.id))
    ids.push(charge.id)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  while (arrived.size < charges * eventsPerCharge) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  stop.abort()
  await listening
  const created = new Map<string, number>()
  for (const charge of ids) {
    for await (const event of client.events.list({ charge })) {
      created.set(event.id, Date.parse(event.created_at))
    }
  }
  return [...arrived].map(([id, { at }]) => at - (created.get(id) ?? Number.NaN))
}

/** The sandbox behind a hop that answers 404 to the stream, as the production service does. */
const withoutStream = await startBareServer((incoming, response) => {
  if (
    (incoming.url ?? '').startsWith('/v2/events/stream') ||
    (incoming.url ?? '').startsWith('/v2/test/')
  ) {
    incoming.resume()
    response.writeHead(404, { 'content-type': 'application/json' })
    response.end('{"message":"Not found"}')
    return
  }
  const chunks: Buffer[] = []
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
  incoming.on('end', async () => {
    const answer = await fetch(`${sandbox.ready.url}${incoming.url}`, {
      method: incoming.method ?? 'GET',
      headers: incoming.headers as Record<string, string>,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    })
    const body = Buffer.from(await answer.arrayBuffer())
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' })
    response.end(body)
  })
})

try {
  // A warm-up run of each, whose figures are not kept.
  await delays(sandbox.ready.url, 1000)
  const pushed = await delays(sandbox.ready.url, 1000)
  const polled = await delays(withoutStream.url, 1000)
  reportFigure('listen: creation to forward, event stream, p50', percentile(pushed, 50), 'ms')
  reportFigure(
    'listen: creation to forward, searching every 1 s, p50',
    percentile(polled, 50),
    'ms',
  )
  reportAgainstTarget(
    'listen: creation to forward, event stream, p99',
    percentile(pushed, 99),
    percentile(polled, 99),
    { atMost: 100 },
    'ms',
  )
} finally {
  await Promise.all([receiver.close(), withoutStream.close(), sandbox.close()])
}
