import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionLimits } from '../src/listen.js'
import { type Shop, startShop } from '../src/shop.js'
import { shopHttp } from './support/shop-http.js'
import { type Stack, startStack } from './support/stack.js'

// What a client on the network can do to the shop: big form bodies, slow or many connections.

let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(async () => {
  await stack?.close()
})

/** A form post over node:http: in chunks without Content-Length, or with the length announced. */
function postForm(url: string, chunks: readonly string[], contentLength?: number) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(contentLength === undefined ? {} : { 'content-length': String(contentLength) }),
        },
      },
      (incoming) => {
        let text = ''
        incoming.on('data', (part: Buffer) => {
          text += part.toString('utf8')
        })
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text }))
      },
    )
    outgoing.on('error', reject)
    for (const chunk of chunks) outgoing.write(chunk)
    outgoing.end()
  })
}

describe('form bodies', () => {
  it('refuses a form over 16 KB with 413, counted as it arrives', async () => {
    const chunks = Array<string>(40).fill(`product=${'p'.repeat(1000)}&`)
    const answer = await postForm(`${stack.shop.url}/checkout`, chunks)
    expect(answer.status).toBe(413)
    expect(answer.text).toContain('The form is too large')
  })

  it('refuses an announced length over 16 KB, and still takes an ordinary form', async () => {
    const big = `product=${'p'.repeat(17 * 1024)}`
    expect((await postForm(`${stack.shop.url}/checkout`, [big], big.length)).status).toBe(413)
    const orderId = await shopHttp(stack).checkout('espresso-beans', 'pay')
    expect(orderId).toMatch(/^ord_/)
  })
})

describe('slow and many connections', () => {
  async function guardedShop(connections: ConnectionLimits): Promise<Shop> {
    return startShop({
      client: stack.client,
      database: stack.database,
      browserCheckout: stack.browserCheckout,
      connections,
    })
  }

  function open(shop: Shop): Promise<Socket> {
    const { hostname, port } = new URL(shop.url)
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(socket))
      socket.once('error', reject)
    })
  }

  /** Resolves with what the server sent once it closes the connection. */
  function closed(socket: Socket): Promise<string> {
    let received = ''
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1')
    })
    socket.on('error', () => {})
    return new Promise((resolve) => socket.once('close', () => resolve(received)))
  }

  it('cuts off a client that sends its headers byte by byte', async () => {
    const shop = await guardedShop({ headersTimeoutMs: 100, receiveTimeoutMs: 200 })
    const socket = await open(shop)
    const whenClosed = closed(socket)
    socket.write('GET / HTTP/1.1\r\nHost: shop\r\n')
    // One byte every 10 ms: a header that would take 10 s to finish.
    const header = `X-Slow: ${'a'.repeat(1000)}`
    let sent = 0
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write(header.charAt(sent++))
    }, 10)
    try {
      expect(await whenClosed).toMatch(/^HTTP\/1\.1 408 /)
      expect(sent).toBeLessThan(header.length)
    } finally {
      clearInterval(drip)
      await shop.close()
    }
  })

  it('refuses connections beyond the cap', async () => {
    const shop = await guardedShop({ maxConnections: 2 })
    try {
      const first = await open(shop)
      const second = await open(shop)
      expect(await closed(await open(shop))).toBe('')
      // The held ones are still served.
      const answer = closed(first)
      first.write('GET /healthz HTTP/1.1\r\nHost: shop\r\nConnection: close\r\n\r\n')
      expect(await answer).toMatch(/^HTTP\/1\.1 200 /)
      second.destroy()
    } finally {
      await shop.close()
    }
  })

  it('names a bad limit', async () => {
    await expect(guardedShop({ maxConnections: 0 })).rejects.toThrow(/maxConnections/)
    await expect(guardedShop({ headersTimeoutMs: 500, receiveTimeoutMs: 100 })).rejects.toThrow(
      /headersTimeoutMs/,
    )
  })
})
