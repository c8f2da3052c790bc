import { createRequire } from "node:module"; const require = createRequire(import.meta.url)
import { createClient } from '@chargekit/client'
import { startSandbox } from '@chargekit/sandbox'
import { compiledCheck, knownEventSchemas, eventSchema } from '@chargekit/schemas'
const accountId = 'acct_sandbox', privateKey = 'sk_sandbox'
const sandbox = await startSandbox({ port: 0 })
const seed = createClient({ accountId, privateKey, baseUrl: sandbox.url })
const charge = await seed.charges.create({ charge_type: 'card_onetime', amount: 125.5, currency: 'USD', events_url: 'http://127.0.0.1:9/events', metadata: { order_id: 'bench-1' } })
await seed.instruments.create({ charge: charge.id, name: 'Bench Holder', number: '4242424242424242', expiration_month: 12, expiration_year: 2030, cvc: '123' })
const page = await seed.events.list({ charge: charge.id, per_page: 1 })
const eventId = page.collection[0]!.id
const r = await fetch(`${sandbox.url}/v2/events/${eventId}`, { headers: { authorization: `Basic ${btoa(`${accountId}:${privateKey}`)}` } })
const text = await r.text()
require("node:fs").writeFileSync("/tmp/pc/event.json", text)
console.log('bytes', text.length, JSON.parse(text).type)
await sandbox.close()
process.exit(0)
const fakeFetch = async () => new Response(text, { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_1' } })
const on = createClient({ accountId, privateKey, baseUrl: 'http://127.0.0.1:1', fetch: fakeFetch as any })
const off = createClient({ accountId, privateKey, baseUrl: 'http://127.0.0.1:1', fetch: fakeFetch as any, validate: false })
const raw = async () => { const res = await fakeFetch(); return JSON.parse(await res.text()) }
const json = JSON.parse(text)
const check = compiledCheck((knownEventSchemas as any)[json.type])
async function time(name: string, fn: () => unknown, n = 20000) {
  for (let i = 0; i < 2000; i++) await fn()
  const t = performance.now()
  for (let i = 0; i < n; i++) await fn()
  const us = ((performance.now() - t) / n) * 1000
  console.log(name.padEnd(30), us.toFixed(2), 'µs')
}
for (let k = 0; k < 2; k++) {
await time('JSON.parse', () => JSON.parse(text))
await time('check (compiled)', () => check(json))
await time('safeParse', () => (knownEventSchemas as any)[json.type].safeParse(json))
await time('raw fake fetch+parse', raw)
await time('client validate off', () => off.events.retrieve(eventId))
await time('client validate on', () => on.events.retrieve(eventId))
}
