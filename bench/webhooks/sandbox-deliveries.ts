// The deliveries both webhooks benchmarks send: real events recorded by a running sandbox, each
// delivered the way the sandbox delivers it (JSON body plus the `event`/`event_type` query).
import { type ChargekitClient, createClient } from '@chargekit/client'
import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import { testCard } from '@chargekit/sandbox/testing'
import { startBareServer } from '../support/bare-server'

export const accountId = 'acct_sandbox'
export const privateKey = 'sk_sandbox'

export interface Delivery {
  /** Path and query, to append to a receiver's origin. */
  url: string
  body: string
}

/**
 * Creates `flows` paid charges (5 events each: charge ×2, instrument ×2, payment) whose
 * `events_url` is `eventsUrl`, and returns one delivery per recorded event.
 */
export async function seedDeliveries(
  client: ChargekitClient,
  eventsUrl: string,
  flows: number,
): Promise<Delivery[]> {
  let next = 0
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < flows) {
        const charge = await client.charges.create({
          charge_type: 'card_onetime',
          amount: 42 + (next++ % 50),
          currency: 'EUR',
          events_url: eventsUrl,
          metadata: { order_id: `bench-${next}` },
        })
        await client.instruments.create(testCard(charge.id))
      }
    }),
  )
  const deliveries: Delivery[] = []
  for await (const event of client.events.list({ per_page: 100 })) {
    const query = new URLSearchParams({ event: event.id, event_type: event.type })
    deliveries.push({ url: `/?${query}`, body: JSON.stringify({ id: event.id, type: event.type }) })
  }
  if (deliveries.length < flows) {
    throw new Error(`the sandbox recorded only ${deliveries.length} events`)
  }
  return deliveries
}

/** POSTs one delivery; any answer but 200 fails the run (a benchmark must not measure errors). */
export async function deliver(origin: string, delivery: Delivery): Promise<void> {
  const response = await fetch(`${origin}${delivery.url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: delivery.body,
  })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`a receiver answered ${response.status}`)
}

export async function waitFor(done: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export interface SeededSandbox {
  sandbox: Sandbox
  client: ChargekitClient
  pool: Delivery[]
  close(): Promise<void>
}

/**
 * A sandbox holding `flows` seeded charges, with every event of them already delivered to a sink:
 * none is retried in the background while a receiver is measured.
 */
export async function startSeededSandbox(flows: number): Promise<SeededSandbox> {
  let sunk = 0
  const sink = await startBareServer((request, response) => {
    request.resume()
    request.on('end', () => {
      sunk++
      response.writeHead(200).end()
    })
  })
  const sandbox = await startSandbox({ port: 0 })
  const close = async () => {
    await sandbox.close()
    await sink.close()
  }
  try {
    const client = createClient({ accountId, privateKey, baseUrl: sandbox.url })
    const pool = await seedDeliveries(client, `${sink.url}/events`, flows)
    await waitFor(() => sunk >= pool.length, 30_000, 'the sandbox delivered the seeded events')
    return { sandbox, client, pool, close }
  } catch (error) {
    await close()
    throw error
  }
}
