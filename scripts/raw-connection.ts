import { connect, type Socket } from 'node:net'

// What a client on the network can do to a server we ship, at the socket level: hold
// connections open, or send its request a byte at a time. Shared by the sandbox's and the
// example shop's connection-limit tests.

/**
 * A TCP connection to the origin's host and port, open once connected; `from` is the local
 * address to connect from (any of 127.0.0.0/8 is this machine on Linux).
 */
export function openConnection(origin: string, from?: string): Promise<Socket> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress: from }, () =>
      resolve(socket),
    )
    socket.once('error', reject)
  })
}

/**
 * Slowloris: `count` connections spread evenly over the `from` addresses, each sending the
 * start of a request and then nothing more, held until `close()`. `open()` counts those the
 * server has not closed, `answered()` those it sent anything on.
 */
export async function holdSlowClients(origin: string, count: number, from: readonly string[]) {
  const sockets: Socket[] = []
  let closed = 0
  let answered = 0
  const openOne = async (index: number) => {
    const socket = await openConnection(origin, from[index % from.length])
    sockets.push(socket)
    socket.on('error', () => {})
    socket.once('data', () => answered++)
    socket.once('close', () => closed++)
    socket.write(`GET /v2/charges HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nX-Slow: `)
  }
  // In batches, so the handshakes do not overflow the server's accept queue.
  for (let start = 0; start < count; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - start) }, (_, offset) => openOne(start + offset)),
    )
  }
  return {
    open: () => sockets.length - closed,
    answered: () => answered,
    close: () => {
      for (const socket of sockets) socket.destroy()
    },
  }
}

/** Resolves with everything the server sent once it closes the connection. */
export function receivedUntilClosed(socket: Socket): Promise<string> {
  let received = ''
  socket.on('data', (data: Buffer) => {
    received += data.toString('latin1')
  })
  socket.on('error', () => {})
  return new Promise((resolve) => socket.once('close', () => resolve(received)))
}

/**
 * Sends `requestLine` and its first headers, then one more header a byte every 10 ms (10 s for
 * the whole header, far beyond any header timeout). `sent()` tells how many bytes of it went
 * out; `stop()` ends the drip.
 */
export function sendHeadersSlowly(socket: Socket, requestHead: string) {
  socket.write(requestHead)
  const header = `X-Slow: ${'a'.repeat(1000)}`
  let sent = 0
  const drip = setInterval(() => {
    if (!socket.destroyed) socket.write(header.charAt(sent++))
  }, 10)
  return {
    headerLength: header.length,
    sent: () => sent,
    stop: () => clearInterval(drip),
  }
}
