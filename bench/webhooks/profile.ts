// A CPU profile of the createNodeMiddleware path alone. The sandbox and the load generator run in
// this process; the receiver runs in a child started with `--cpu-prof`, so its profile holds only
// the receiver's work (parse, event fetch through @chargekit/client, compare, claim, dispatch).
// Run (after the build named in index.ts): pnpm exec tsx bench/webhooks/profile.ts [seconds], and
// open the printed main-thread .cpuprofile in Chrome DevTools (Performance) or speedscope.
import { fork } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient } from '@chargekit/client'
import { createNodeMiddleware, createWebhooks } from '@chargekit/webhooks'
import { startBareServer } from '../support/bare-server'
import { measureRate } from '../support/measure'
import {
  accountId,
  type Delivery,
  deliver,
  privateKey,
  startSeededSandbox,
} from './sandbox-deliveries'

const receiverFlag = '--receiver'

if (process.argv[2] === receiverFlag) await runReceiver(process.argv[3] as string)
else await profile(Number(process.argv[2] ?? 5))

async function profile(seconds: number) {
  const { sandbox, pool, close } = await startSeededSandbox(240)
  try {
    const profileDir = mkdtempSync(join(tmpdir(), 'webhooks-profile-'))
    const child = fork(fileURLToPath(import.meta.url), [receiverFlag, sandbox.url], {
      // The same loader and conditions as this process, plus the profiler.
      execArgv: [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    })
    const origin = await new Promise<string>((resolve) => child.once('message', resolve))
    let next = 0
    const { perSecond } = await measureRate(
      () => deliver(origin, pool[next++ % pool.length] as Delivery),
      { durationMs: seconds * 1_000, warmupMs: 500, concurrency: 16 },
    )
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.send('stop')
    await exited
    console.log(`${perSecond.toFixed(0)} deliveries/s while profiling; profile in ${profileDir}`)
  } finally {
    await close()
  }
}

async function runReceiver(sandboxUrl: string) {
  const webhooks = createWebhooks({
    client: createClient({ accountId, privateKey, baseUrl: sandboxUrl }),
  })
  webhooks.onAny(() => {})
  const middleware = createNodeMiddleware(webhooks)
  const server = await startBareServer((request, response) => {
    void middleware(request, response)
  })
  // Exiting (not being killed) is what makes Node write the profile.
  process.once('message', () => process.exit(0))
  process.send?.(server.url)
}
