import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/**
 * A loopback server that records every request and answers with `respond`'s status, headers and
 * body: for behaviour the sandbox cannot be made to show (a foreign answer, an odd header).
 */
export async function startRecordingServer(
  respond: (request: RecordedRequest) => {
    status: number
    headers?: Record<string, string>
    body?: string
  },
) {
  const requests: RecordedRequest[] = []
  let connections = 0
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(request)
      const answer = respond(request)
      outgoing.writeHead(answer.status, answer.headers ?? { 'content-type': 'application/json' })
      outgoing.end(answer.body ?? '')
    })
  })
  server.on('connection', () => {
    connections++
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** How many TCP connections clients opened so far. */
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
