import { knownEventSchemas, eventSchema, chargeSchema, paymentSchema, instrumentSchema } from '@chargekit/schemas'
import * as z from 'zod/v4'
import { readFileSync } from 'node:fs'
const text = readFileSync('/tmp/pc/event.json', 'utf8')
const json0 = JSON.parse(text)
const schema = (knownEventSchemas as any)[json0.type]
for (const [name, s] of Object.entries({ event: schema, generic: eventSchema, charge: chargeSchema, payment: paymentSchema, instrument: instrumentSchema })) {
  try { z.compile(s as any, { strict: true }); console.log(name, 'compiles') } catch (e) { console.log(name, 'REFUSED', (e as Error).message) }
}
const compiled = z.compile(schema)
function cpu(name: string, fn: () => unknown, n = 20000) {
  for (let i = 0; i < 3000; i++) fn()
  const t = process.cpuUsage()
  for (let i = 0; i < n; i++) fn()
  const u = process.cpuUsage(t)
  console.log(name.padEnd(30), ((u.user + u.system) / n).toFixed(2), 'µs cpu')
}
const texts = Array.from({ length: 64 }, (_, i) => text.replace('"bench-1"', `"bench-${i}"`))
let i = 0
for (let k = 0; k < 2; k++) {
  cpu('JSON.parse', () => JSON.parse(texts[i++ & 63]!))
  cpu('parse + z.validate compiled', () => z.validate(compiled, JSON.parse(texts[i++ & 63]!)))
  cpu('parse + compiled safeParse', () => compiled.safeParse(JSON.parse(texts[i++ & 63]!)))
  cpu('parse + interp safeParse', () => schema.safeParse(JSON.parse(texts[i++ & 63]!)))
}
