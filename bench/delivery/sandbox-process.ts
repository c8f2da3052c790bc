/**
 * The sandbox the delivery bench drives, alone in its own process at time scale 1: the API, the
 * store and the delivery engine, as a merchant meets the service. The merchants' flows and their
 * receiver run in the bench's process. Announces `{ apiUrl }` and stops on `close`.
 */
import { startSandbox } from '@chargekit/sandbox'

const sandbox = await startSandbox({ port: 0, timeScale: 1 })
process.on('message', (message) => {
  if (message === 'close') void sandbox.close().then(() => process.exit(0))
})
process.send?.({ apiUrl: sandbox.apiUrl })
