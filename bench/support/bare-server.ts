import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A bare `node:http` server on loopback: the baseline every server-side benchmark compares to. */
export async function startBareServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Answers every request with the same JSON text, after reading (and discarding) the body. */
export function fixedJsonHandler(body: string, status = 200) {
  return (request: IncomingMessage, response: ServerResponse) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(body)
    })
  }
}

/** A merchant receiver answering every delivery 204 at once, so deliveries finish during the run. */
export async function startDeliveryReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server = await startBareServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(204)
      response.end()
    })
  })
  return { url: `${server.url}/events`, close: server.close }
}
