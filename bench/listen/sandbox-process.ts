/**
 * The sandbox the listen bench follows, alone in its own process at time scale 1. It delivers
 * nothing itself (the bench's charges name an events_url nobody answers): listen's forwards are
 * what the bench measures. Announces `{ url }` and stops on `close`.
 */
import { startSandbox } from '@chargekit/sandbox'

const sandbox = await startSandbox({ port: 0, deliverEvents: false })
process.on('message', (message) => {
  if (message === 'close') void sandbox.close().then(() => process.exit(0))
})
process.send?.({ url: sandbox.url })
