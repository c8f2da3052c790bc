// A CPU profile of create-charge with delivery on, the whole bench process (the load generator,
// the sandbox and the local receiver share one thread there too).
// Run (after the build named in index.ts):
//   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/sandbox-profile bench/sandbox/profile.ts [seconds]
// and open the largest .cpuprofile (the main thread's) in Chrome DevTools (Performance) or
// speedscope.
import { startSandbox } from '@chargekit/sandbox'
import { startDeliveryReceiver } from '../support/bare-server'
import { measureRate } from '../support/measure'

const seconds = Number(process.argv[2] ?? 5)
const auth = `Basic ${Buffer.from('acct_sandbox:sk_sandbox').toString('base64')}`
const receiver = await startDeliveryReceiver()
const sandbox = await startSandbox({ port: 0 })
const body = JSON.stringify({
  charge_type: 'card_onetime',
  amount: 20,
  currency: 'USD',
  events_url: receiver.url,
  metadata: { order_id: 'bench' },
})
const { perSecond } = await measureRate(
  async () => {
    const response = await fetch(`${sandbox.apiUrl}/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      body,
    })
    await response.text()
  },
  { durationMs: seconds * 1_000, warmupMs: 500, concurrency: 16 },
)
console.log(`${perSecond.toFixed(0)} charges/s while profiling`)
await sandbox.close()
await receiver.close()
