/**
 * The sandbox under soak, alone in its own process so its RSS is its own: started with the
 * `retainCharges` given as the first argument (`default`: the option left out, as a user starts
 * it), it answers each `sample` message with its memory after a full garbage collection and the
 * highest RSS it has seen, and stops on `close`.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { startSandbox } from '@chargekit/sandbox'

export interface MemorySample {
  rss: number
  heapUsed: number
  /** The highest RSS seen so far, read every 200 ms without a collection first. */
  peakRss: number
}

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const retain = process.argv[2]
const sandbox = await startSandbox({
  port: 0,
  ...(retain === 'default' ? {} : { retainCharges: Number(retain) }),
})
const send = (message: unknown) => process.send?.(message)
let peakRss = process.memoryUsage.rss()
const watch = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss())
}, 200)

process.on('message', (message) => {
  if (message === 'sample') {
    gc()
    const { rss, heapUsed } = process.memoryUsage()
    peakRss = Math.max(peakRss, rss)
    send({ kind: 'sample', sample: { rss, heapUsed, peakRss } satisfies MemorySample })
  } else if (message === 'close') {
    clearInterval(watch)
    void sandbox.close().then(() => process.exit(0))
  }
})
send({ kind: 'ready', apiUrl: sandbox.apiUrl })
