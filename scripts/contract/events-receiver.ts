import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A merchant's events_url that takes every delivery (204) and keeps one body per event type. */
export async function startEventsReceiver() {
  const deliveries: Record<string, unknown> = {}
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }
        deliveries[body.type] ??= body
      } finally {
        response.writeHead(204).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
