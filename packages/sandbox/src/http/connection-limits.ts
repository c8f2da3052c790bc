import type { Server, ServerOptions } from 'node:http'
import type { Socket } from 'node:net'
import { SandboxError } from '../errors'
import { sourceAddress } from './credential-throttle'

/** What one client may hold of a server: time to send a request, and connections at once. */
export interface ConnectionLimits {
  /** A client must send the request's headers within this, or the connection is closed (408). @default 5_000 */
  headersTimeoutMs?: number
  /** A client must send the whole request, body included, within this. @default 30_000 */
  receiveTimeoutMs?: number
  /** Open connections at once, from all clients. @default 1_000 */
  maxConnections?: number
  /** Open connections at once from one client address (an IPv6 client: its /64 network). @default 256 */
  maxConnectionsPerAddress?: number
}

export const defaultConnectionLimits = {
  headersTimeoutMs: 5_000,
  receiveTimeoutMs: 30_000,
  maxConnections: 1_000,
  maxConnectionsPerAddress: 256,
} satisfies Required<ConnectionLimits>

/**
 * The limits with their defaults filled in, refusing headers allowed longer than the whole
 * request and a share per address larger than the whole.
 */
export function resolveConnectionLimits(limits: ConnectionLimits = {}): Required<ConnectionLimits> {
  const resolved = { ...defaultConnectionLimits, ...limits }
  for (const [name, value] of Object.entries(resolved)) {
    if (!(Number.isInteger(value) && value >= 1)) {
      throw new SandboxError(
        `connections.${name} must be a whole number >= 1; got ${String(value)}`,
      )
    }
  }
  if (resolved.headersTimeoutMs > resolved.receiveTimeoutMs) {
    throw new SandboxError(
      'connections.headersTimeoutMs cannot be longer than connections.receiveTimeoutMs: the headers are part of the request',
    )
  }
  if (limits.maxConnectionsPerAddress === undefined) {
    resolved.maxConnectionsPerAddress = Math.min(
      resolved.maxConnectionsPerAddress,
      resolved.maxConnections,
    )
  } else if (resolved.maxConnectionsPerAddress > resolved.maxConnections) {
    throw new SandboxError(
      'connections.maxConnectionsPerAddress cannot be more than connections.maxConnections',
    )
  }
  return resolved
}

/**
 * What a node:http server needs to keep `limits` (defaults filled in, each checked): the
 * options to create it with, and `guard`, to call on it before it listens. The sandbox's own
 * server uses it; any node:http server may (the example shop does).
 */
export function limitConnections(limits?: ConnectionLimits): {
  serverOptions: ServerOptions
  guard(server: Server): void
} {
  const resolved = resolveConnectionLimits(limits)
  return {
    serverOptions: timeoutServerOptions(resolved),
    guard: (server) => guardConnections(server, resolved),
  }
}

/**
 * node:http's options for the time-outs. Node checks them on an interval (30 s by default,
 * which would hold a slow client that much longer): the check runs at least as often as the
 * shorter time-out, and at least every second.
 */
export function timeoutServerOptions(limits: Required<ConnectionLimits>): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.receiveTimeoutMs,
    connectionsCheckingInterval: Math.min(limits.headersTimeoutMs, 1_000),
  }
}

interface Connection {
  socket: Socket
  source: string
  /** A request on it is being answered. */
  busy: boolean
}

/**
 * Caps the connections a server holds, in total and per client address, so that slow or idle
 * clients cannot take every place. node:http's own `maxConnections` cannot do this: it closes
 * any connection past the cap on arrival, so whoever holds the places first keeps everyone
 * else out.
 *
 * A new connection from an address already at its share is let in only in place of one of that
 * address's idle keep-alive sockets; otherwise it is closed. At the overall cap, room is made by
 * closing, in order: the longest-idle keep-alive socket (its client reconnects at no cost); else
 * a connection still sending its request from the address that holds the most, when it holds
 * more than the newcomer's address would. A connection whose request is being answered is never
 * closed to make room.
 */
export function guardConnections(server: Server, limits: Required<ConnectionLimits>): void {
  const bySocket = new Map<Socket, Connection>()
  const bySource = new Map<string, Set<Connection>>()
  // Idle keep-alive sockets, longest idle first (insertion order).
  const idle = new Set<Connection>()

  const close = (connection: Connection) => {
    forget(connection)
    connection.socket.destroy()
  }
  const forget = (connection: Connection) => {
    if (!bySocket.delete(connection.socket)) return
    idle.delete(connection)
    const held = bySource.get(connection.source)
    held?.delete(connection)
    if (held?.size === 0) bySource.delete(connection.source)
  }
  const first = <T>(items: Iterable<T>, test: (item: T) => boolean) => {
    for (const item of items) if (test(item)) return item
    return undefined
  }
  /** Closes a connection so that one from `source` fits; false when none may be closed. */
  const makeRoom = (source: string): boolean => {
    const longestIdle = first(idle, () => true)
    if (longestIdle !== undefined) {
      close(longestIdle)
      return true
    }
    const newcomerWouldHold = (bySource.get(source)?.size ?? 0) + 1
    let biggest: Set<Connection> | undefined
    for (const held of bySource.values()) {
      if (biggest === undefined || held.size > biggest.size) biggest = held
    }
    if (biggest === undefined || biggest.size <= newcomerWouldHold) return false
    const receiving = first(biggest, (connection) => !connection.busy)
    if (receiving === undefined) return false
    close(receiving)
    return true
  }

  server.on('connection', (socket: Socket) => {
    const source = sourceAddress(socket.remoteAddress ?? 'unknown')
    const held = bySource.get(source)
    if (held !== undefined && held.size >= limits.maxConnectionsPerAddress) {
      const ownIdle = first(held, (connection) => idle.has(connection))
      if (ownIdle === undefined) {
        socket.destroy()
        return
      }
      close(ownIdle)
    }
    if (bySocket.size >= limits.maxConnections && !makeRoom(source)) {
      socket.destroy()
      return
    }
    const connection: Connection = { socket, source, busy: false }
    bySocket.set(socket, connection)
    bySource.set(source, (bySource.get(source) ?? new Set()).add(connection))
    socket.once('close', () => forget(connection))
  })

  server.on('request', (request, response) => {
    const connection = bySocket.get(request.socket)
    if (connection === undefined) return
    connection.busy = true
    idle.delete(connection)
    response.once('close', () => {
      connection.busy = false
      if (bySocket.has(connection.socket) && !connection.socket.destroyed) idle.add(connection)
    })
  })
}
