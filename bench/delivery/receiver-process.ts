/**
 * A merchant's receiver alone in its own process, for the transport comparison: reads each
 * delivery's body and answers 200, as the delivery bench's in-process receiver does. Announces
 * `{ url }` and stops on `close`.
 */
import { startBareServer } from '../support/bare-server.js'

const receiver = await startBareServer((request, response) => {
  request.resume()
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end('ok')
  })
})
process.on('message', (message) => {
  if (message === 'close') void receiver.close().then(() => process.exit(0))
})
process.send?.({ url: receiver.url })
