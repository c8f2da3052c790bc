// Records what the sandbox answers over HTTP in a full transaction, for the tests of
// @chargekit/schemas to parse (packages/schemas/test/recorded/sandbox-answers.json): the
// schemas are checked against real answers, not only hand-written ones.
// Run after a change of the sandbox's shapes: pnpm fixtures:schemas
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startSandbox } from '@chargekit/sandbox'

const output = new URL('../packages/schemas/test/recorded/sandbox-answers.json', import.meta.url)
const authorization = `Basic ${Buffer.from('acct_sandbox:sk_sandbox').toString('base64')}`

// The merchant's events_url: keeps each delivery's body, by event type.
const deliveries: Record<string, unknown> = {}
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }
    deliveries[body.type] ??= body
    response.writeHead(204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const eventsUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`
const sandbox = await startSandbox({ port: 0, timeScale: 0.00001 })

/** The fields of answers this script reads; everything else is recorded as it came. */
interface Answer {
  id: string
  type: string
  collection: Answer[]
  metadata: { payment: string }
}

async function api(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${sandbox.apiUrl}${path}`, {
    method,
    headers: { authorization, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const answer = (await response.json()) as Answer
  if (!response.ok && response.status !== 402) {
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`)
  }
  return answer
}

const card = (charge: string) => ({
  charge,
  name: 'Ada Lovelace',
  number: '4242424242424242',
  expiration_month: 12,
  expiration_year: new Date().getUTCFullYear() + 3,
  cvc: '123',
})
const chargeOf = (amount: number, extra: Record<string, unknown> = {}) =>
  api('POST', '/charges', {
    charge_type: 'card_onetime',
    amount,
    currency: 'EUR',
    events_url: eventsUrl,
    metadata: { order_id: 'ord_1042' },
    ...extra,
  })

try {
  // Captured on creation, refunded in part, disputed, settled.
  const charge = await chargeOf(25.5)
  const instrument = await api('POST', '/instruments', card(charge.id))
  const [captured] = (await api('GET', `/payments?charge=${charge.id}`)).collection
  if (captured === undefined) throw new Error('the charge was not captured on creation')
  const refund = await api('POST', `/payments/${captured.id}/refund`, { amount: 5 })
  const dispute = await api('POST', `/test/payments/${captured.id}/dispute`, { amount: 1 })
  const settlement = await api('POST', '/test/settlements')
  const payment = await api('GET', `/payments/${captured.id}`)
  // A declined capture (02.03.0000 at the payment step, coded in the charge amount), then a
  // reversal of the authorization.
  const held = await chargeOf(2030000.3, { instrument_params: { captured_on_creation: false } })
  const heldInstrument = await api('POST', '/instruments', card(held.id))
  const declined = await api('POST', '/payments', {
    instrument: heldInstrument.id,
    amount: 2030000.3,
    currency: 'EUR',
  })
  const failedPayment = await api('GET', `/payments/${declined.metadata.payment}`)
  const reversal = await api('POST', `/instruments/${heldInstrument.id}/reversal`)
  // 3-D Secure: the instrument waits for the customer, with a redirect.
  const secure = await chargeOf(30, {
    channels: ['card_onetime_simulated_acquirer'],
    instrument_params: { enable3ds: true },
  })
  const pendingInstrument = await api('POST', '/instruments', card(secure.id))

  const events: Record<string, unknown> = {}
  for (const id of [charge.id, held.id, secure.id]) {
    for (const summary of (await api('GET', `/events?charge=${id}&per_page=100`)).collection) {
      events[summary.type] ??= await api('GET', `/events/${summary.id}`)
    }
  }
  // Every event is delivered once its charge's earlier ones are: wait for the last types.
  const deadline = Date.now() + 10_000
  while (Object.keys(deliveries).length < Object.keys(events).length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }

  const answers = {
    charge,
    instrument: await api('GET', `/instruments/${instrument.id}`),
    pendingInstrument,
    payment,
    failedPayment,
    refund,
    reversal,
    dispute,
    settlement,
    events,
    deliveries,
  }
  writeFileSync(output, `${JSON.stringify(answers, null, 2)}\n`)
  console.log(
    `Recorded ${Object.keys(events).length} event types and ${Object.keys(deliveries).length} deliveries in ${output.pathname}`,
  )
} finally {
  await sandbox.close()
  receiver.closeAllConnections()
  receiver.close()
}
