import { Agent, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { authorization } from '@chargekit/sandbox/testing'
import { describe, expect, it } from 'vitest'
import { createClient, VERSION } from '../src/index'
import { nodeTransport } from '../src/node'
import { startRecordingServer } from './support/recording-server'

const credentials = { accountId: 'acct_node', privateKey: 'sk_node_secret' }

// The client's calls, retries and errors are proven on this transport too (`onEachTransport`);
// these are what only this transport has: its connections and its request framing.
describe('nodeTransport', () => {
  it('keeps one connection alive across calls and frames bodies for node:http', async () => {
    const server = await startRecordingServer(() => ({
      status: 200,
      headers: { 'content-type': 'application/json', 'request-id': 'req_node' },
      body: '{"ok":true}',
    }))
    try {
      const client = createClient({
        ...credentials,
        baseUrl: server.url,
        transport: nodeTransport(),
      })
      for (let call = 0; call < 3; call++) {
        expect(await client.request({ method: 'GET', path: '/ping' })).toEqual({ ok: true })
      }
      const answer = await client
        .request({ method: 'POST', path: '/things', body: { note: 'café' } })
        .withResponse()
      expect(server.connections()).toBe(1)
      expect(answer).toMatchObject({ data: { ok: true }, status: 200, requestId: 'req_node' })
      expect(answer.headers).toBeInstanceOf(Headers)
      expect(answer.headers.get('content-type')).toBe('application/json')
      const post = server.requests[3]
      expect(post).toMatchObject({ method: 'POST', url: '/v2/things', body: '{"note":"café"}' })
      expect(post?.headers).toMatchObject({
        authorization: authorization('acct_node', 'sk_node_secret'),
        'content-type': 'application/json',
        // Bytes, not characters: "é" takes two.
        'content-length': String(Buffer.byteLength('{"note":"café"}')),
        'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/),
        'user-agent': `chargekit-client/${VERSION}`,
      })
    } finally {
      await server.close()
    }
  })

  it('reads a body split inside a character, and sends the path with its query', async () => {
    const body = Buffer.from('{"note":"€uro"}')
    const split = body.indexOf(Buffer.from('€')) + 1
    const seen: string[] = []
    const server = createServer((request, response) => {
      seen.push(request.url ?? '')
      response.writeHead(200, { 'content-type': 'application/json' })
      // Two writes, the first ending inside the three bytes of "€".
      response.write(body.subarray(0, split))
      setImmediate(() => response.end(body.subarray(split)))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const client = createClient({
        ...credentials,
        baseUrl: `http://127.0.0.1:${port}`,
        transport: nodeTransport(),
      })
      const answer = await client.request({ method: 'GET', path: '/notes', query: { q: 'a b' } })
      expect(answer).toEqual({ note: '€uro' })
      expect(seen).toEqual(['/v2/notes?q=a+b'])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('sends through the agent it is given', async () => {
    const server = await startRecordingServer(() => ({ status: 200, body: '{}' }))
    const httpAgent = new Agent({ keepAlive: false })
    let sockets = 0
    const createConnection = httpAgent.createConnection.bind(httpAgent)
    httpAgent.createConnection = (...args: Parameters<typeof createConnection>) => {
      sockets++
      return createConnection(...args)
    }
    try {
      const client = createClient({
        ...credentials,
        baseUrl: server.url,
        transport: nodeTransport({ httpAgent }),
      })
      await client.request({ method: 'DELETE', path: '/things/1' })
      await client.request({ method: 'DELETE', path: '/things/2' })
      expect(sockets).toBe(2)
      // Without keep-alive, each call had a connection of its own.
      expect(server.connections()).toBe(2)
      expect(server.requests.map((request) => request.body)).toEqual(['', ''])
    } finally {
      httpAgent.destroy()
      await server.close()
    }
  })
})
