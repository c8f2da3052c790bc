import { fork } from 'node:child_process'
import { createClient } from '@chargekit/client'
const child = fork(new URL('./_srv.ts', import.meta.url).pathname, { execArgv: ['--import', 'tsx'] })
const base: string = await new Promise((r) => child.once('message', (m) => r(m as string)))
const url = `${base}/v2/events/ev_1`
const headers = { accept: 'application/json', authorization: `Basic ${btoa('acct_sandbox:sk_sandbox')}` }
const on = createClient({ accountId: 'acct_sandbox', privateKey: 'sk_sandbox', baseUrl: base })
const off = createClient({ accountId: 'acct_sandbox', privateKey: 'sk_sandbox', baseUrl: base, validate: false })
const variants: Record<string, () => Promise<unknown>> = {
  raw: async () => { const r = await fetch(url, { headers }); return r.json() },
  rawAbort: async () => { const c = new AbortController(); const t = setTimeout(() => c.abort(), 30000); try { const r = await fetch(url, { headers, signal: c.signal }); return await r.json() } finally { clearTimeout(t) } },
  rawText: async () => { const r = await fetch(url, { headers, redirect: 'manual', method: 'GET', body: null }); return JSON.parse(await r.text()) },
  off: () => off.events.retrieve('ev_1'),
  on: () => on.events.retrieve('ev_1'),
}
const only = process.env.ONLY
async function cpu(name: string, fn: () => Promise<unknown>, n: number, conc: number) {
  const run = async (k: number) => { const w = async () => { while (k-- > 0) await fn() }; await Promise.all(Array.from({ length: conc }, w)) }
  await run(1000)
  const t = process.cpuUsage(); const w0 = performance.now()
  await run(n)
  const u = process.cpuUsage(t)
  console.log(`${name.padEnd(10)} c=${conc} ${((u.user + u.system) / n).toFixed(1)} µs cpu/req, wall ${((performance.now() - w0) * 1000 / n).toFixed(1)} µs/req`)
}
for (const conc of [Number(process.env.C ?? 16)]) for (let k = 0; k < 1; k++) for (const [name, fn] of Object.entries(variants)) if (!only || only === name) await cpu(name, fn, Number(process.env.N ?? 4000), conc)
child.kill()
