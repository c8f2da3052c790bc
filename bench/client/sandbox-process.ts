/**
 * The sandbox the client bench calls, alone in its own process: the service is never in its
 * clients' process, and sharing one event loop would make every client wait behind the sandbox's
 * own work, hiding what the client itself costs. It seeds one charge with an authorized
 * instrument, announces `{ kind: 'ready', url, eventId }` (the newest event: a full event of
 * ~3 KB), and stops on `close`.
 */
import { createClient } from '@chargekit/client'
import { startSandbox } from '@chargekit/sandbox'
import { testCard } from '@chargekit/sandbox/testing'

const sandbox = await startSandbox({ port: 0 })
// The sandbox's default account, the one the bench calls with.
const client = createClient({
  accountId: 'acct_sandbox',
  privateKey: 'sk_sandbox',
  baseUrl: sandbox.url,
})
const charge = await client.charges.create({
  charge_type: 'card_onetime',
  amount: 125.5,
  currency: 'USD',
  // Nothing listens there: delivery failures do not touch the API path measured here.
  events_url: 'http://127.0.0.1:9/events',
  metadata: { order_id: 'bench-1' },
})
await client.instruments.create(testCard(charge.id))
const page = await client.events.list({ charge: charge.id, per_page: 1 })
const event = page.collection[0]
if (event === undefined) throw new Error('the sandbox recorded no event for the seeded charge')

process.on('message', (message) => {
  if (message === 'close') void sandbox.close().then(() => process.exit(0))
})
process.send?.({ kind: 'ready', url: sandbox.url, eventId: event.id })
