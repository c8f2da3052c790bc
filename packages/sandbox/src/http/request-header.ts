import type { Context } from 'hono'
import type { SandboxEnv } from './sandbox-env'

/**
 * A request header, read from node's parsed headers when the request came over a socket: the
 * web `Headers` object Hono would build from them costs a measurable share of a small request.
 * In-process requests (`sandbox.fetch`) have no node request and use the web headers.
 */
export function requestHeader(c: Context<SandboxEnv>, name: string): string | undefined {
  const incoming = c.env?.incoming
  if (incoming === undefined) return c.req.header(name)
  const value = incoming.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}
