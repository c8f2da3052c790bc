/**
 * The sandbox under soak, alone in its own process so its RSS is its own: started with the
 * `retainCharges` given as the first argument, it answers each `sample` message with its memory
 * after a full garbage collection, and stops on `close`.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { startSandbox } from '@chargekit/sandbox'

export interface MemorySample {
  rss: number
  heapUsed: number
}

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const sandbox = await startSandbox({ port: 0, retainCharges: Number(process.argv[2]) })
const send = (message: unknown) => process.send?.(message)

process.on('message', (message) => {
  if (message === 'sample') {
    gc()
    const { rss, heapUsed } = process.memoryUsage()
    send({ kind: 'sample', sample: { rss, heapUsed } satisfies MemorySample })
  } else if (message === 'close') {
    void sandbox.close().then(() => process.exit(0))
  }
})
send({ kind: 'ready', apiUrl: sandbox.apiUrl })
