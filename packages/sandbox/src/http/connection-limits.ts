import type { ServerOptions } from 'node:http'
import { SandboxError } from '../errors'

/** What one client may hold of the server: time to send a request, and connections at once. */
export interface ConnectionLimits {
  /** A client must send the request's headers within this, or the connection is closed (408). @default 10_000 */
  headersTimeoutMs?: number
  /** A client must send the whole request, body included, within this. @default 30_000 */
  receiveTimeoutMs?: number
  /** Open connections at once; more are closed on arrival. @default 1_000 */
  maxConnections?: number
}

export const defaultConnectionLimits = {
  headersTimeoutMs: 10_000,
  receiveTimeoutMs: 30_000,
  maxConnections: 1_000,
} satisfies Required<ConnectionLimits>

/**
 * The limits with their defaults filled in (each already checked as `startSandbox`'s options
 * are), refusing headers allowed longer than the whole request.
 */
export function resolveConnectionLimits(limits: ConnectionLimits = {}): Required<ConnectionLimits> {
  const resolved = { ...defaultConnectionLimits, ...limits }
  if (resolved.headersTimeoutMs > resolved.receiveTimeoutMs) {
    throw new SandboxError(
      'connections.headersTimeoutMs cannot be longer than connections.receiveTimeoutMs: the headers are part of the request',
    )
  }
  return resolved
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
