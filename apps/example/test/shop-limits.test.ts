import { request } from 'node:http'
import type { ConnectionLimits } from '@chargekit/sandbox'
import { eventually } from '@chargekit/sandbox/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  holdSlowClients,
  openConnection,
  receivedUntilClosed,
  sendHeadersSlowly,
} from '../../../scripts/raw-connection.js'
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

/**
 * A form post over node:http: in chunks without Content-Length, or with the length announced;
 * with no chunks, a GET. `from` is the loopback address to send it from.
 */
function postForm(url: string, chunks: readonly string[], contentLength?: number, from?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: chunks.length === 0 ? 'GET' : 'POST',
        agent: false,
        ...(from === undefined ? {} : { localAddress: from }),
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

  const open = (shop: Shop) => openConnection(shop.url)

  it('cuts off a client that sends its headers byte by byte', async () => {
    const shop = await guardedShop({ headersTimeoutMs: 100, receiveTimeoutMs: 200 })
    const socket = await open(shop)
    const whenClosed = receivedUntilClosed(socket)
    const slow = sendHeadersSlowly(socket, 'GET / HTTP/1.1\r\nHost: shop\r\n')
    try {
      expect(await whenClosed).toMatch(/^HTTP\/1\.1 408 /)
      expect(slow.sent()).toBeLessThan(slow.headerLength)
    } finally {
      slow.stop()
      await shop.close()
    }
  })

  it('answers a customer from another address while 1,100 slow clients hold their connections', async () => {
    // The header deadline is lifted here, so that only the connection caps keep the place.
    const shop = await guardedShop({ headersTimeoutMs: 120_000, receiveTimeoutMs: 120_000 })
    const attackers = ['2', '3', '4', '5', '6', '7'].map((host) => `127.0.0.${host}`)
    const slow = await holdSlowClients(shop.url, 1_100, attackers)
    try {
      const answer = await postForm(`${shop.url}/healthz`, [], undefined, '127.0.0.8')
      expect(answer.status).toBe(200)
      expect(slow.open()).toBeGreaterThanOrEqual(900)
      expect(slow.answered()).toBe(0)
    } finally {
      slow.close()
      await shop.close()
    }
  })

  it('holds at most maxConnectionsPerAddress connections from one address', async () => {
    const shop = await guardedShop({ maxConnectionsPerAddress: 3 })
    const slow = await holdSlowClients(shop.url, 10, ['127.0.0.2'])
    try {
      await eventually(() => expect(slow.open()).toBe(3))
      expect((await postForm(`${shop.url}/healthz`, [], undefined, '127.0.0.3')).status).toBe(200)
    } finally {
      slow.close()
      await shop.close()
    }
  })

  it('refuses connections beyond the cap', async () => {
    const shop = await guardedShop({ maxConnections: 2 })
    try {
      const first = await open(shop)
      const second = await open(shop)
      expect(await receivedUntilClosed(await open(shop))).toBe('')
      // The held ones are still served.
      const answer = receivedUntilClosed(first)
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
