import type { Server, ServerOptions } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What one client may hold of the shop: time to send a request, and connections at once. */
export interface ConnectionLimits {
  /** A client must send the request's headers within this, or is cut off (408). @default 10_000 */
  headersTimeoutMs?: number
  /** A client must send the whole request, body included, within this. @default 30_000 */
  receiveTimeoutMs?: number
  /** Open connections at once; more are closed on arrival. @default 1_000 */
  maxConnections?: number
}

/**
 * node:http's options for the limits (its defaults hold a slow client for minutes). Node checks
 * the time-outs on an interval, 30 s by default: it runs at least as often as the headers
 * time-out, and at least every second.
 */
export function connectionOptions(limits: ConnectionLimits = {}): {
  serverOptions: ServerOptions
  maxConnections: number
} {
  const { headersTimeoutMs = 10_000, receiveTimeoutMs = 30_000, maxConnections = 1_000 } = limits
  for (const [name, value] of Object.entries({
    headersTimeoutMs,
    receiveTimeoutMs,
    maxConnections,
  })) {
    if (!(Number.isInteger(value) && value >= 1)) {
      throw new Error(`connections.${name} must be a whole number >= 1; got ${String(value)}`)
    }
  }
  if (headersTimeoutMs > receiveTimeoutMs) {
    throw new Error('connections.headersTimeoutMs cannot be longer than receiveTimeoutMs')
  }
  return {
    serverOptions: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: receiveTimeoutMs,
      connectionsCheckingInterval: Math.min(headersTimeoutMs, 1_000),
    },
    maxConnections,
  }
}

/** Listens on `port` (0: any free one); resolves to the port in use. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

/** The URL form of a host: IPv6 literals go in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}
