import { createClient } from '@chargekit/client'
import { compiledCheck, knownEventSchemas } from '@chargekit/schemas'
import { readFileSync } from 'node:fs'
const text = readFileSync('/tmp/pc/event.json', 'utf8')
const fakeFetch = async () => new Response(text, { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_1' } })
const on = createClient({ accountId: 'acct_sandbox', privateKey: 'sk_sandbox', baseUrl: 'http://127.0.0.1:1', fetch: fakeFetch as any, validate: process.env.V !== 'off' })
const json0 = JSON.parse(text)
const check = compiledCheck((knownEventSchemas as any)[json0.type])
async function time(name: string, fn: () => unknown, n = 20000) {
  for (let i = 0; i < 3000; i++) await fn()
  const t = performance.now()
  for (let i = 0; i < n; i++) await fn()
  console.log(name.padEnd(30), (((performance.now() - t) / n) * 1000).toFixed(2), 'µs')
}
if (process.env.MODE === 'parts') {
  for (let k = 0; k < 3; k++) {
    await time('JSON.parse', () => JSON.parse(text))
    await time('parse+check fresh', () => check(JSON.parse(text)))
    await time('check same', () => check(json0))
  }
} else {
  await time('client', () => on.events.retrieve(json0.id), 60000)
}
