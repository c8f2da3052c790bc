import { connect, type Socket } from 'node:net'

// What a client on the network can do to a server we ship, at the socket level: hold
// connections open, or send its request a byte at a time. Shared by the sandbox's and the
// example shop's connection-limit tests.

/** A TCP connection to the origin's host and port, open once connected. */
export function openConnection(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket))
    socket.once('error', reject)
  })
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
