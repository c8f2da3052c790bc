// A CPU profile of create-charge with delivery on, the whole bench process (the load generator,
// the sandbox and the local receiver share one thread there too). With --limit, the same load on
// the limit index.ts measures against: a delivery-off sandbox, then two bare POSTs of a stored
// event's compact JSON, with a signed delivery's headers, per charge. Two profiles, each divided
// by its charges, show what the engine costs per charge beyond the wire.
// Run (after the build named in index.ts):
//   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/sandbox-profile bench/sandbox/profile.ts [seconds] [--limit]
// and open the largest .cpuprofile (the main thread's) in Chrome DevTools (Performance) or
// speedscope.
import { startSandbox } from '@chargekit/sandbox'
import { latestEventJson, startDeliveryReceiver, wirePosts } from '../support/bare-server'
import { measureRate } from '../support/measure'

const seconds = Number(process.argv[2] ?? 5)
const limit = process.argv.includes('--limit')
const headers = {
  'content-type': 'application/json',
  authorization: `Basic ${Buffer.from('acct_sandbox:sk_sandbox').toString('base64')}`,
}
const receiver = await startDeliveryReceiver()
const sandbox = await startSandbox({ port: 0, deliverEvents: !limit })
const body = JSON.stringify({
  charge_type: 'card_onetime',
  amount: 20,
  currency: 'USD',
  events_url: receiver.url,
  metadata: { order_id: 'bench' },
})
const createCharge = async () => {
  const response = await fetch(`${sandbox.apiUrl}/charges`, { method: 'POST', headers, body })
  await response.text()
}
let wire: ReturnType<typeof wirePosts> | undefined
if (limit) {
  // One charge first, whose event's compact JSON the bare POSTs carry.
  await createCharge()
  wire = wirePosts(receiver.url, await latestEventJson(sandbox.apiUrl, headers), 'signed')
}
const { perSecond, operations } = await measureRate(
  async () => {
    await createCharge()
    wire?.post()
    wire?.post()
  },
  { durationMs: seconds * 1_000, warmupMs: 500, concurrency: 16 },
)
console.log(
  `${operations} charges, ${perSecond.toFixed(0)}/s while profiling (${limit ? 'the limit' : 'delivery on'})`,
)
await wire?.close()
await sandbox.close()
await receiver.close()
